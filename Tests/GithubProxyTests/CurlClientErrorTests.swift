import Foundation
import GithubProxy
import StreamCore
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class CurlClientErrorTests: XCTestCase {
    /// Nothing listens on the port: the failure is `cannotConnectToHost`, as URLSession reports.
    func testRefusedConnectionIsCannotConnect() throws {
        let port = try unusedPort()
        let client = CurlHTTPClient()
        let done = expectation(description: "done")
        let outcome = Outcome()
        let cancellable = client.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/")!)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.error = error }
                done.fulfill()
            }, receiveValue: { _ in XCTFail("no value expected") })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.error?.code, .cannotConnectToHost)
        cancellable.cancel()
    }

    func testMalformedURLIsBadURL() {
        let client = CurlHTTPClient()
        let done = expectation(description: "done")
        let outcome = Outcome()
        let cancellable = client.dataTaskPublisher(for: URL(string: "gopherx://127.0.0.1/")!)
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { outcome.error = error }
                done.fulfill()
            }, receiveValue: { _ in })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(outcome.error?.code, .badURL)
        cancellable.cancel()
    }

    /// Binds port 0, reads the port the kernel chose, and closes the socket again.
    private func unusedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot bind") }
        return UInt16(bigEndian: address.sin_port)
    }
}

final class Outcome: @unchecked Sendable {
    // Written once on the callback queue before the expectation is fulfilled, read after the wait.
    var error: URLError?
}
