import HTTPServer

/// The HTTP cases' state: built once per iteration, outside the measured region.
enum HTTPCases {
    /// What Chromium sends for a page load (13 fields), the service's common keep-alive request.
    static let browserRequest = """
        GET /api/users/heckj HTTP/1.1\r
        Host: localhost:8080\r
        Connection: keep-alive\r
        sec-ch-ua: "Chromium";v="131", "Not_A Brand";v="24"\r
        sec-ch-ua-mobile: ?0\r
        sec-ch-ua-platform: "Linux"\r
        Upgrade-Insecure-Requests: 1\r
        User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\r
        Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r
        Sec-Fetch-Site: none\r
        Sec-Fetch-Mode: navigate\r
        Sec-Fetch-Dest: document\r
        Accept-Encoding: gzip, deflate, br, zstd\r
        Accept-Language: en-US,en;q=0.9\r
        \r

        """
    /// What wrk sends: a request line and `Host`.
    static let minimalRequest = "GET /healthz HTTP/1.1\r\nHost: localhost:8080\r\n\r\n"

    /// One parser fed the same keep-alive request again and again; an operation is one request.
    final class Parser: BatchOperation {
        private var parser = HTTPRequestParser()
        private let bytes: [UInt8]

        init(request: String) { bytes = Array(request.utf8) }

        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                bytes.withUnsafeBytes { parser.append($0) }
                do {
                    while let event = try parser.next() {
                        if case .complete(let request) = event { checksum &+= request.target.utf8.count }
                    }
                } catch {
                    preconditionFailure("the benchmark's request does not parse: \(error)")
                }
            }
            return checksum
        }
    }

    /// A JSON `200` written into one reused buffer; an operation is one response.
    final class Writer: BatchOperation {
        private var serializer = HTTPResponseSerializer()
        private var buffer: [UInt8] = []
        private let response = HTTPResponse(
            status: .ok,
            headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: .bytes(Array(#"{"login":"heckj","id":43388,"name":"Joe Heck","public_repos":69}"#.utf8))
        )

        init() { buffer.reserveCapacity(1024) }

        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                buffer.removeAll(keepingCapacity: true)
                serializer.serialize(response, into: &buffer)
                checksum &+= buffer.count
            }
            return checksum
        }
    }

    /// The service's routes (Sources/ServiceApp/Service/Service.swift); an operation is one match.
    final class Routes: BatchOperation {
        private var router = Router()
        private let target: String

        init(target: String) {
            self.target = target
            let ok = HTTPResponse(status: .ok, text: "ok")
            for path in ["/", "/search", "/form", "/pipelines.js", "/asyncapi.json", "/api/pipelines",
                         "/healthz", "/readyz", "/metrics", "/openapi.json"] {
                router.get(path, immediate: { _ in ok })
            }
            router.get("/api/users/{login}", immediate: { _ in ok })
        }

        func run(_ count: Int) -> Int {
            var checksum = 0
            for _ in 0..<count {
                if case .matched(_, let parameters) = router.match(method: .get, target: target) {
                    checksum &+= parameters.count &+ 1
                }
            }
            return checksum
        }
    }
}
