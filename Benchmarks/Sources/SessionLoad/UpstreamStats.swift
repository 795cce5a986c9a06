import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads FakeUpstream's `GET /__stats`, and the service's gate wait from its `/metrics`, with one
/// blocking HTTP/1.1 request each on loopback.
enum UpstreamStats {
    /// The `requests` count, or nil when the endpoint cannot be read.
    static func requests(url: String) -> Int? { read(url: url)?.requests }

    /// The `requests` and `distinctLogins` counts, or nil when the endpoint cannot be read.
    static func read(url: String) -> (requests: Int, distinctLogins: Int)? {
        guard let body = get(url: url),
              let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
        guard let requests = object["requests"] as? Int else { return nil }
        return (requests, object["distinctLogins"] as? Int ?? 0)
    }

    /// The service's time queued at the upstream gate so far (`github_upstream_queue_wait_seconds`
    /// from its `/metrics`): the sum in seconds and the number of waits, or nil when it cannot be read.
    static func gateWait(metricsURL url: String) -> (seconds: Double, count: Int)? {
        guard let body = get(url: url) else { return nil }
        var sum: Double?
        var count: Int?
        for line in body.split(separator: "\n") where line.hasPrefix("github_upstream_queue_wait_seconds_") {
            let parts = line.split(separator: " ")
            guard parts.count >= 2 else { continue }
            if parts[0] == "github_upstream_queue_wait_seconds_sum" { sum = Double(parts[1]) }
            if parts[0] == "github_upstream_queue_wait_seconds_count" { count = Int(parts[1]) ?? Double(parts[1]).map { Int($0) } }
        }
        // No line yet: nothing has waited since the service started.
        return (sum ?? 0, count ?? 0)
    }

    /// The body of a 200 answer to one blocking `GET url` (HTTP/1.1, loopback), or nil.
    private static func get(url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host, let port = components.port else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let path = components.path.isEmpty ? "/" : components.path
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += chunk[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 200"), let split = text.range(of: "\r\n\r\n") else { return nil }
        return String(text[split.upperBound...])
    }
}
