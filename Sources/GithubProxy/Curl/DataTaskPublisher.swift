import Foundation
import Locking
import StreamCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlHTTPClient {
    /// A publisher that fetches `request` once per subscriber, like URLSession's.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, client: self)
    }

    /// A publisher that GETs `url` once per subscriber.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        dataTaskPublisher(for: URLRequest(url: url))
    }

    /// A publisher of the data and response of a request, on libcurl.
    ///
    /// The transfer starts on the first demand; cancelling the subscription aborts it at once.
    public struct DataTaskPublisher: Publisher {
        public typealias Output = (data: Data, response: HTTPURLResponse)
        public typealias Failure = URLError

        /// The request this publisher performs.
        public let request: URLRequest
        /// The client that performs it.
        public let client: CurlHTTPClient

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: Inner(request: request, client: client, downstream: subscriber))
        }

        private final class Inner<Downstream: Subscriber>: Subscription, TransferCompletionSink, CustomStringConvertible,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // Sendable: `state` is guarded by `lock`; the downstream is only called outside it.
            private enum State {
                case waitingForDemand(Downstream)
                case running(Downstream, CurlTransferToken)
                case done
            }

            private let lock = Lock()
            private var state: State
            private let request: URLRequest
            private let client: CurlHTTPClient

            init(request: URLRequest, client: CurlHTTPClient, downstream: Downstream) {
                self.request = request
                self.client = client
                state = .waitingForDemand(downstream)
            }

            var description: String { "DataTaskPublisher" }

            func request(_ demand: Subscribers.Demand) {
                lock.lock()
                guard demand > 0, case .waitingForDemand(let downstream) = state else {
                    lock.unlock()
                    return
                }
                // Hold the lock while starting, so a completion cannot overtake the state change.
                weak let sink: (any TransferCompletionSink)? = self
                let token = client.start(request) { result in sink?.finish(result) }
                state = .running(downstream, token)
                lock.unlock()
            }

            func finish(_ result: Result<Output, URLError>) {
                lock.lock()
                guard case .running(let downstream, _) = state else {
                    lock.unlock()
                    return
                }
                state = .done
                lock.unlock()
                switch result {
                case .success(let output):
                    _ = downstream.receive(output)
                    downstream.receive(completion: .finished)
                case .failure(let error):
                    downstream.receive(completion: .failure(error))
                }
            }

            func cancel() {
                lock.lock()
                let previous = state
                state = .done
                lock.unlock()
                if case .running(_, let token) = previous { token.cancel() }
            }
        }
    }
}

/// Receives a transfer's outcome; lets the completion closure avoid capturing generic types.
private protocol TransferCompletionSink: AnyObject, Sendable {
    func finish(_ result: Result<(data: Data, response: HTTPURLResponse), URLError>)
}
