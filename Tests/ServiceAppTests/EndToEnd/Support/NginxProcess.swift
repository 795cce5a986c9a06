import Foundation
import HTTPTestSupport
import XCTest

/// The real nginx with `deploy/nginx/nginx.conf`, its two `server replica…` lines pointed at
/// replicas on loopback, `listen` at a free loopback port, and pid, logs and temp files in a
/// directory of its own; checked with `nginx -t` first. Stopped (SIGQUIT) with the object.
final class NginxProcess {
    let port: UInt16
    private let directory: URL
    private var process: ChildProcess?

    /// Starts nginx balancing over `replicaPorts` (one port for both lines, or one each).
    init(replicaPorts: [UInt16]) throws {
        let binary = try Self.requireNginx()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try unusedLoopbackPort()
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration(replicaPorts: replicaPorts).write(to: file, atomically: true, encoding: .utf8)
        let check = try ChildProcess(binary, ["-t", "-q", "-c", file.path])
        XCTAssertEqual(check.waitForExit(timeout: 10), 0, "nginx -t: \(check.output)")
        process = try ChildProcess(binary, ["-c", file.path, "-g", "daemon off;"])
        XCTAssertTrue(waitUntil(timeout: 10) { (try? TestHTTPClient(port: self.port)) != nil }, "nginx did not start")
    }

    deinit {
        process?.send(SIGQUIT)
        _ = process?.waitForExit(timeout: 5)
        try? FileManager.default.removeItem(at: directory)
    }

    /// `nginx`, or a skip (a failure under CI) naming the install.
    static func requireNginx() throws -> URL {
        for path in ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"] where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let message = "nginx is not installed; install it with: apt-get install nginx"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }

    private func configuration(replicaPorts: [UInt16]) throws -> String {
        let deploy = ChildProcess.packageRoot.appendingPathComponent("deploy/nginx/nginx.conf")
        var text = try String(contentsOf: deploy, encoding: .utf8)
        let servers = text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("server replica") }
        XCTAssertEqual(servers.count, 2, "the deploy config balances two replicas")
        for (index, line) in servers.enumerated() {
            let replicaPort = replicaPorts[min(index, replicaPorts.count - 1)]
            text = text.replacingOccurrences(of: line, with: "        server 127.0.0.1:\(replicaPort) max_fails=3 fail_timeout=5s;")
        }
        XCTAssertTrue(text.contains("listen 80;"))
        text = text.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        let temp = directory.path
        text = text.replacingOccurrences(of: "http {", with: """
            http {
                access_log \(temp)/access.log;
                client_body_temp_path \(temp)/body; proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi; uwsgi_temp_path \(temp)/uwsgi; scgi_temp_path \(temp)/scgi;
            """)
        return "pid \(temp)/nginx.pid;\nerror_log \(temp)/error.log;\n" + text
    }

    /// The last `lines` lines of nginx's error log, for a failing test's message.
    func errorLogTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
