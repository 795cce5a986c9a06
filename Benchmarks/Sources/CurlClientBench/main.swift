// CurlHTTPClient (libcurl multi, one driver thread) against FoundationNetworking's URLSession
// (itself on libcurl), both fetching a small JSON user from a local fake GitHub with 16
// concurrent request loops. Release builds only:
//
//     cd Benchmarks && swift run -c release CurlClientBench [seconds-per-client] [loops]
import Dispatch
import FakeGithub
import Foundation
import GithubProxy
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.first.flatMap(Double.init) ?? 5
let loops = arguments.dropFirst().first.flatMap(Int.init) ?? 16

let fake = FakeGithub(logCapacity: 0, loopCount: 2)
let baseURL = try fake.start()
let url = baseURL.appendingPathComponent("users/heckj")
let request = URLRequest(url: url)

// Both clients keep up to `loops` connections to the host and reuse them.
let curl = CurlHTTPClient(configuration: .init(maxConnectionsPerHost: loops))
let sessionConfiguration = URLSessionConfiguration.ephemeral
sessionConfiguration.httpMaximumConnectionsPerHost = loops
sessionConfiguration.urlCache = nil
let session = URLSession(configuration: sessionConfiguration)

/// One request through the libcurl client's publisher, waited for.
@Sendable func curlRequest() -> Bool {
    let done = DispatchSemaphore(value: 0)
    let ok = OKFlag()
    let cancellable = curl.dataTaskPublisher(for: request).sink(
        receiveCompletion: { _ in done.signal() },
        receiveValue: { output in ok.set(output.response.statusCode == 200 && !output.data.isEmpty) }
    )
    done.wait()
    withExtendedLifetime(cancellable) {}
    return ok.value
}

/// One request through URLSession, waited for.
@Sendable func sessionRequest() -> Bool {
    let done = DispatchSemaphore(value: 0)
    let ok = OKFlag()
    session.dataTask(with: request) { data, response, _ in
        ok.set((response as? HTTPURLResponse)?.statusCode == 200 && !(data ?? Data()).isEmpty)
        done.signal()
    }.resume()
    done.wait()
    return ok.value
}

final class OKFlag: @unchecked Sendable {
    // Sendable: written before the semaphore is signalled, read after the wait.
    private(set) var value = false
    func set(_ ok: Bool) { value = ok }
}

let clients: [(name: String, send: @Sendable () -> Bool)] = [
    ("CurlHTTPClient (libcurl multi)", curlRequest),
    ("URLSession (FoundationNetworking)", sessionRequest),
]
var rows: [(String, LoadRun.Outcome)] = []
for client in clients {
    _ = LoadRun(loops: loops, seconds: min(1, seconds / 5)).run(client.send)  // warm-up: connections, caches
    rows.append((client.name, LoadRun(loops: loops, seconds: seconds).run(client.send)))
}
fake.stop()

func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

print("\(loops) concurrent loops, \(format(seconds, 0)) s per client, GET \(url.path) (\(FakeGithubUser.fixtures[0].json(baseURL: baseURL.absoluteString).count) B JSON) from a local HTTPServer\n")
print("| client | requests | failures | requests/s | p50 (ms) | p99 (ms) |")
print("|---|---:|---:|---:|---:|---:|")
for (name, outcome) in rows {
    print("| \(name) | \(outcome.requests) | \(outcome.failures) | \(format(outcome.requestsPerSecond, 0)) | \(format(outcome.percentile(0.5), 3)) | \(format(outcome.percentile(0.99), 3)) |")
}
if rows.count == 2, rows[1].1.requestsPerSecond > 0 {
    print("\nthroughput ratio (curl / URLSession): \(format(rows[0].1.requestsPerSecond / rows[1].1.requestsPerSecond, 2))×")
}
