import Foundation
import Logging

/// Log lines captured by `RecordingLogHandler`: `level message key=value …`, keys sorted.
final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

/// A swift-log handler that records every line in memory.
struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        records.append(([event.level.rawValue, event.message.description] + pairs).joined(separator: " "))
    }
}
