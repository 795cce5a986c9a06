import Foundation

/// Reads one setting with the contract's precedence — flag, then environment variable, then
/// config file — and converts it to its type, checking its range. Absent everywhere, the
/// built-in default applies. An empty environment variable counts as unset.
struct SettingReader: Sendable {
    /// Flag values as typed on the command line.
    var flags: [ConfigKey: String]
    /// The process environment.
    var environment: [String: String]
    /// The parsed config file, if one was read.
    var file: ConfigFile?

    /// A raw value and where it came from.
    private enum Raw {
        case text(String)
        case json(JSONValue)

        var shown: String {
            switch self {
            case .text(let text): "\"\(text)\""
            case .json(let value): value.description
            }
        }
    }

    /// Every value given for `key`, the one that wins first: flag, environment variable, file.
    private func lookup(_ key: ConfigKey) -> [(Raw, ConfigSource)] {
        var found: [(Raw, ConfigSource)] = []
        if let flag = key.flag, let value = flags[key] {
            found.append((.text(value), .flag(flag)))
        }
        if let name = key.environmentVariable, let value = environment[name], !value.isEmpty {
            found.append((.text(value), .environment(name)))
        }
        if let file, let value = file.values[key] {
            found.append((.json(value), .file(path: file.path, key: key.rawValue)))
        }
        return found
    }

    /// Looks `key` up and converts it with `convert`; `nil` from `convert` is an error with `reason`.
    /// Every value given is checked, also one that a source of higher precedence overrides: a
    /// wrong `{"port": "8080"}` in the file is an error whether or not `--port` is given.
    private func read<Value>(
        _ key: ConfigKey, default defaultValue: Value, reason: String, _ convert: (Raw) -> Value?
    ) throws(ConfigError) -> Value {
        var winner: Value?
        for (raw, source) in lookup(key) {
            guard let value = convert(raw) else {
                throw .invalidValue(
                    value: key.isSecret ? "(not shown: it may hold a password)" : raw.shown, source: source, reason: reason)
            }
            if winner == nil { winner = value }
        }
        return winner ?? defaultValue
    }

    /// An integer in `range`.
    func integer(_ key: ConfigKey, default defaultValue: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        try read(key, default: defaultValue, reason: "must be an integer in \(range.lowerBound)...\(range.upperBound)") {
            let number: Int?
            switch $0 {
            case .text(let text): number = Int(text.trimmingCharacters(in: .whitespaces))
            case .json(.number(let double)):
                number = double.rounded() == double && abs(double) < 1e15 ? Int(double) : nil
            case .json: number = nil
            }
            return number.flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A number of milliseconds in `range`.
    func milliseconds(
        _ key: ConfigKey, default defaultValue: Duration, in range: ClosedRange<Int>
    ) throws(ConfigError) -> Duration {
        let fallback = Int(defaultValue.wholeMilliseconds)
        return .milliseconds(try integer(key, default: fallback, in: range))
    }

    /// A number of seconds (fractions allowed) in `range`.
    func seconds(
        _ key: ConfigKey, default defaultValue: Duration, in range: ClosedRange<Double>
    ) throws(ConfigError) -> Duration {
        let reason = "must be a number of seconds in \(range.lowerBound.formatted)...\(range.upperBound.formatted)"
        return try read(key, default: defaultValue, reason: reason) {
            let number: Double?
            switch $0 {
            case .text(let text): number = Double(text.trimmingCharacters(in: .whitespaces))
            case .json(.number(let double)): number = double
            case .json: number = nil
            }
            guard let number, number.isFinite, range.contains(number) else { return nil }
            return .milliseconds(Int64((number * 1000).rounded()))
        }
    }

    /// `true` or `false`.
    func boolean(_ key: ConfigKey, default defaultValue: Bool) throws(ConfigError) -> Bool {
        try read(key, default: defaultValue, reason: "must be true or false") {
            switch $0 {
            case .text(let text): Bool(text.trimmingCharacters(in: .whitespaces).lowercased())
            case .json(.bool(let value)): value
            case .json: nil
            }
        }
    }

    /// A list of strings, each accepted by `convert`: a JSON array in the file, comma-separated
    /// text in a flag or environment variable. One bad element rejects the whole setting.
    func list<Value>(
        _ key: ConfigKey, default defaultValue: [Value], reason: String, _ convert: (String) -> Value?
    ) throws(ConfigError) -> [Value] {
        try read(key, default: defaultValue, reason: reason) { raw -> [Value]? in
            let texts: [String]
            switch raw {
            case .text(let text):
                texts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            case .json(.array(let values)):
                var strings: [String] = []
                for value in values {
                    guard case .string(let text) = value else { return nil }
                    strings.append(text)
                }
                texts = strings
            case .json: return nil
            }
            var converted: [Value] = []
            for text in texts {
                guard let value = convert(text) else { return nil }
                converted.append(value)
            }
            return converted
        }
    }

    /// A string accepted by `convert`, which explains a rejection with `reason`.
    func string<Value>(
        _ key: ConfigKey, default defaultValue: Value, reason: String, _ convert: (String) -> Value?
    ) throws(ConfigError) -> Value {
        try read(key, default: defaultValue, reason: reason) {
            switch $0 {
            case .text(let text): convert(text)
            case .json(.string(let text)): convert(text)
            case .json: nil
            }
        }
    }
}

extension Double {
    /// `10` for whole numbers, `0.001` otherwise.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
