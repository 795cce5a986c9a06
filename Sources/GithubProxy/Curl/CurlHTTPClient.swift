import CCurl
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP client on libcurl's multi interface: one multi handle (so connections are reused and
/// HTTP/2 is multiplexed where the server offers it) driven by one thread.
public final class CurlHTTPClient: Sendable {
    /// Limits and timeouts.
    public struct Configuration: Sendable {
        public var connectTimeout: Duration
        /// The whole request, redirects included; a request's own `timeoutInterval` can shorten it.
        public var requestTimeout: Duration
        public var maxRedirects: Int
        public var maxResponseBytes: Int
        public var maxConnectionsPerHost: Int
        /// Easy handles of ended transfers kept, reset, for the next ones (freed when the client
        /// shuts down): a reused handle is not allocated and set up again.
        public var spareEasyHandles: Int

        public init(
            connectTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(10),
            maxRedirects: Int = 5, maxResponseBytes: Int = 4 * 1024 * 1024, maxConnectionsPerHost: Int = 32,
            spareEasyHandles: Int = 16
        ) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.maxRedirects = maxRedirects
            self.maxResponseBytes = maxResponseBytes
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.spareEasyHandles = spareEasyHandles
        }
    }

    public let configuration: Configuration
    private let multi: CurlMulti

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        multi = CurlMulti(settings: configuration)
    }

    deinit { multi.shutdown() }

    /// Aborts every transfer and stops the driver thread (the service's `curl-driver` at the end
    /// of a graceful shutdown); requests started afterwards fail at once. Idempotent.
    public func shutdown() { multi.shutdown() }

    /// Starts a request; `completion` runs once, on the client's driver thread, unless the
    /// returned token is cancelled first, which aborts the transfer at once. Completions run one
    /// at a time there, as URLSession's run on its serial delegate queue: what takes long belongs
    /// on another thread, or the other transfers wait for it.
    func start(
        _ request: URLRequest,
        completion: @escaping CurlTransfer.Completion
    ) -> CurlTransferToken {
        let transfer = CurlTransfer(request: request, maxResponseBytes: configuration.maxResponseBytes, completion: completion)
        multi.add(transfer)
        return CurlTransferToken(transfer: transfer, multi: multi)
    }

    /// Whether the caller runs on this client's driver thread, where its transfers complete.
    var isDriverThread: Bool { multi.isDriverThread }

    /// Easy handles currently allocated by every client in the process, those kept for reuse
    /// included (for leak checks: a client that has shut down holds none).
    public static var liveEasyHandles: Int { easyHandles.load(ordering: .relaxed) }

    /// Easy handles alive now, in every client.
    static let easyHandles = Atomic<Int>(0)
}

/// Cancels one transfer.
struct CurlTransferToken: Sendable {
    let transfer: CurlTransfer
    let multi: CurlMulti

    func cancel() { multi.remove(transfer) }
}
