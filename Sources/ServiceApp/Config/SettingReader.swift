import Configuration
import Foundation

/// Reads one setting with the contract's precedence — flag, then environment variable, then
/// config file — and checks its range. Each layer's swift-configuration provider converts the
/// value to the type asked for; absent everywhere, the built-in default applies.
///
/// The providers are asked one by one rather than through a `ConfigReader`, whose getters fall
/// back to the default when a value does not convert: here a value that does not convert, or is
/// out of range, is an error naming its source — also in a layer that a higher one overrides.
struct SettingReader: Sendable {
    /// The layers, the one that wins first.
    var layers: [ConfigLayer]

    /// Looks `key` up as `type` in every layer and converts it with `convert`; a value the
    /// provider cannot convert, or `nil` from `convert`, is an error with `reason`. Every value
    /// given is checked: a wrong `{"port": "8080"}` in the file is an error whether or not
    /// `--port` is given.
    private func read<Value>(
        _ key: ConfigKey, as type: ConfigType, default defaultValue: Value, reason: String,
        _ convert: (ConfigContent) -> Value?
    ) throws(ConfigError) -> Value {
        var winner: Value?
        for layer in layers {
            let invalid = ConfigError.invalidValue(value: layer.shown(key), source: layer.source(of: key), reason: reason)
            let found: ConfigValue?
            do {
                found = try layer.snapshot.value(forKey: key.absoluteKey, type: type).value
            } catch {
                throw invalid  // present, but the provider cannot convert it to `type`
            }
            guard let found else { continue }
            guard let value = convert(found.content) else { throw invalid }
            if winner == nil { winner = value }
        }
        return winner ?? defaultValue
    }

    /// An integer in `range`.
    func integer(_ key: ConfigKey, default defaultValue: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        try read(key, as: .int, default: defaultValue, reason: "must be an integer in \(range.lowerBound)...\(range.upperBound)") {
            guard case .int(let number) = $0, range.contains(number) else { return nil }
            return number
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
        return try read(key, as: .double, default: defaultValue, reason: reason) {
            guard case .double(let number) = $0, number.isFinite, range.contains(number) else { return nil }
            return .milliseconds(Int64((number * 1000).rounded()))
        }
    }

    /// `true` or `false`.
    func boolean(_ key: ConfigKey, default defaultValue: Bool) throws(ConfigError) -> Bool {
        try read(key, as: .bool, default: defaultValue, reason: "must be true or false") {
            guard case .bool(let value) = $0 else { return nil }
            return value
        }
    }

    /// A list of strings, each accepted by `convert`: a JSON array in the file, comma-separated
    /// text in a flag or environment variable (empty items dropped). One bad element rejects the
    /// whole setting.
    func list<Value>(
        _ key: ConfigKey, default defaultValue: [Value], reason: String, _ convert: (String) -> Value?
    ) throws(ConfigError) -> [Value] {
        try read(key, as: .stringArray, default: defaultValue, reason: reason) { content -> [Value]? in
            guard case .stringArray(let texts) = content else { return nil }
            var converted: [Value] = []
            for text in texts.map({ $0.trimmingCharacters(in: .whitespaces) }) where !text.isEmpty {
                guard let value = convert(text) else { return nil }
                converted.append(value)
            }
            return converted
        }
    }

    /// Where `key`'s winning value comes from (the first layer that has one); nil when no layer
    /// gives it.
    func source(of key: ConfigKey) -> ConfigSource? {
        layers.first { layer in
            (try? layer.snapshot.value(forKey: key.absoluteKey, type: .string).value) != nil
        }?.source(of: key)
    }

    /// A string accepted by `convert`, which explains a rejection with `reason`.
    func string<Value>(
        _ key: ConfigKey, default defaultValue: Value, reason: String, _ convert: (String) -> Value?
    ) throws(ConfigError) -> Value {
        try read(key, as: .string, default: defaultValue, reason: reason) {
            guard case .string(let text) = $0 else { return nil }
            return convert(text)
        }
    }
}

extension Double {
    /// `10` for whole numbers, `0.001` otherwise.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
