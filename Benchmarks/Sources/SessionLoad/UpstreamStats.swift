import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads FakeUpstream's `GET /__stats` with one blocking HTTP/1.1 request on loopback.
enum UpstreamStats {
    /// The `requests` count, or nil when the endpoint cannot be read.
    static func requests(url: String) -> Int? { read(url: url)?.requests }

    /// The `requests` and `distinctLogins` counts, or nil when the endpoint cannot be read.
    static func read(url: String) -> (requests: Int, distinctLogins: Int)? {
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
        guard text.hasPrefix("HTTP/1.1 200"), let split = text.range(of: "\r\n\r\n"),
              let object = try? JSONSerialization.jsonObject(with: Data(text[split.upperBound...].utf8)) as? [String: Any] else { return nil }
        guard let requests = object["requests"] as? Int else { return nil }
        return (requests, object["distinctLogins"] as? Int ?? 0)
    }
}
