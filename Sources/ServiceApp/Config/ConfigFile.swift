import Configuration
import Foundation

/// The settings of a JSON config file, flattened to `ConfigKey`s. Parsing rejects invalid JSON,
/// a top level that is not an object, group keys that are not objects and unknown keys — a
/// group's setting written at the top level under its dotted name (`"http.maxHeaderBytes"`)
/// among them: it goes inside its group's object, so that no setting can be given twice.
///
/// It is the file layer's swift-configuration snapshot: a value of the wrong type (`"8080"` for
/// a port, `null`, `true` for a number) is an error, not absent.
struct ConfigFile: Sendable, Equatable {
    /// The path the file was read from, as given.
    let path: String
    /// The values present in the file.
    let values: [ConfigKey: JSONValue]

    /// Parses the contents of the file at `path`.
    static func parse(_ data: Data, path: String) throws(ConfigError) -> ConfigFile {
        let root: JSONValue
        do {
            // JSONSerialization explains syntax errors with a position; JSONDecoder does not.
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .invalidJSON(path: path, reason: Self.reason(for: error, in: data))
        }
        guard case .object(let members) = root else {
            throw .invalidJSON(path: path, reason: "the top level must be an object, found \(root)")
        }
        var values: [ConfigKey: JSONValue] = [:]
        var unknown: [String] = []
        for (name, value) in members {
            guard ConfigKey.groups.contains(name) else {
                if !name.contains("."), let key = ConfigKey(rawValue: name) { values[key] = value } else { unknown.append(name) }
                continue
            }
            guard case .object(let groupMembers) = value else {
                throw .invalidValue(
                    value: value.description, source: .file(path: path, key: name), reason: "must be an object")
            }
            for (member, memberValue) in groupMembers {
                let dotted = "\(name).\(member)"
                if let key = ConfigKey(rawValue: dotted) { values[key] = memberValue } else { unknown.append(dotted) }
            }
        }
        guard unknown.isEmpty else { throw .unknownKeys(unknown.sorted(), path: path) }
        return ConfigFile(path: path, values: values)
    }

    /// Reads a file from disk; `nil` when nothing exists at `path`.
    static func readFromDisk(_ path: String) throws(ConfigError) -> Data? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "it is a directory") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    /// A value of the file that is not of the type its setting reads.
    struct TypeMismatch: Error {
        let key: ConfigKey
        let type: ConfigType
    }

    /// The parser's explanation, with "character N" turned into a line and column.
    private static func reason(for error: any Error, in data: Data) -> String {
        let nsError = error as NSError
        guard let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String else { return "\(error)" }
        guard let range = debug.range(of: #"character \d+"#, options: .regularExpression),
            let offset = Int(debug[range].dropFirst("character ".count))
        else { return debug }
        let prefix = data.prefix(offset)
        let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return debug.replacingCharacters(in: range, with: "line \(line), column \(column)")
    }
}

extension ConfigFile: ConfigSnapshot {
    var providerName: String { "config file \(path)" }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let name = key.components.joined(separator: ".")
        guard let configKey = ConfigKey(rawValue: name), let json = values[configKey] else {
            return LookupResult(encodedKey: name, value: nil)
        }
        guard let content = json.content(as: type) else { throw TypeMismatch(key: configKey, type: type) }
        return LookupResult(encodedKey: name, value: ConfigValue(content, isSecret: configKey.isSecret))
    }
}
