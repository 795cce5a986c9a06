import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamCore
import XCTest

/// `URLSession.shared.dataTaskPublisher(for:)` compiles and behaves with `import StreamCore` as
/// with `import Combine`, against a one-shot HTTP server on 127.0.0.1.
final class URLSessionDataTaskPublisherTests: XCTestCase {
    func testDeliversDataAndResponseThenFinishes() throws {
        let server = try OneShotHTTPServer(body: "hello")
        let done = expectation(description: "finished")
        var values: [(data: Data, response: URLResponse)] = []
        let cancellable = URLSession.shared.dataTaskPublisher(for: server.url)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { XCTFail("\(error)") }
                done.fulfill()
            }, receiveValue: { values.append($0) })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values.count, 1)
        XCTAssertEqual(values.first.map { String(decoding: $0.data, as: UTF8.self) }, "hello")
        XCTAssertEqual((values.first?.response as? HTTPURLResponse)?.statusCode, 200)
        cancellable.cancel()
    }

    func testConnectionRefusedFailsWithURLError() throws {
        let done = expectation(description: "failed")
        let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!)
            .map(\.data)
            .sink(receiveCompletion: { completion in
                guard case .failure = completion else { return XCTFail("expected a URLError") }
                done.fulfill()
            }, receiveValue: { _ in XCTFail("no value expected") })
        wait(for: [done], timeout: 10)
        cancellable.cancel()
    }
}

/// Accepts one connection on 127.0.0.1, reads the request head and answers 200 with `body`.
private final class OneShotHTTPServer: @unchecked Sendable {
    // Sendable: `fd` is set in init and only read afterwards.
    let url: URL
    private let fd: Int32

    init(body: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fd = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw URLError(.cannotConnectToHost) }
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/greeting")!
        Thread.detachNewThread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while read(client, &byte, 1) == 1 {
                head.append(byte)
                if head.suffix(4) == [13, 10, 13, 10] { break }
            }
            let answer = "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = answer.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
    }

    deinit { close(fd) }
}
