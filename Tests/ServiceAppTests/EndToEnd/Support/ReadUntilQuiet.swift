import Foundation
import HTTPTestSupport

/// Whatever `next` reads within `seconds` (a read timing out ends it): the `drain(for:)` of the
/// test clients.
func readAll<Item>(for seconds: TimeInterval, _ next: (TimeInterval) throws -> Item) throws -> [Item] {
    let deadline = Date().addingTimeInterval(seconds)
    var read: [Item] = []
    while deadline.timeIntervalSinceNow > 0 {
        do {
            read.append(try next(deadline.timeIntervalSinceNow))
        } catch TestClientError.timedOut {
            break
        }
    }
    return read
}
