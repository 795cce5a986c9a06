import FuzzSupport
import Foundation
@testable import ServiceApp

// libFuzzer entry for the config file (`--config`, `CONFIG_FILE`, `config/service.json`): the
// bytes of the file go through the same resolver the service runs at start-up.
//
// Checked:
// - nothing traps: every input gives a configuration or a `ConfigError` (exit 2 in the service);
// - an error explains itself (a non-empty message naming the file or a key);
// - an accepted file parses to the same values twice, and its configuration keeps every limit
//   in the range the resolver promises (ports, throttle, lengths).

@inline(never)
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    var resolver = ConfigResolver(flags: [:], configFlag: "fuzz.json", environment: [:])
    resolver.readFile = { _ throws(ConfigError) in bytes }
    do {
        let config = try resolver.resolve()
        precondition((0...65_535).contains(config.port), "port out of range")
        precondition((1...39).contains(config.minLength), "minLength out of range")
        precondition(config.throttle >= .zero && config.throttle <= .seconds(60), "throttle out of range")
        precondition(config.maxConnections >= 1, "maxConnections out of range")
        let first = try ConfigFile.parse(bytes, path: "fuzz.json")
        let second = try ConfigFile.parse(bytes, path: "fuzz.json")
        precondition(first == second, "parsing is not deterministic")
    } catch {
        precondition(!"\(error)".isEmpty, "a config error says why")
    }
    return 0
}

/// The executable's entry point (see docs/fuzzing.md): hands over to libFuzzer's driver.
@_cdecl("FuzzConfigFile_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzz)
}
