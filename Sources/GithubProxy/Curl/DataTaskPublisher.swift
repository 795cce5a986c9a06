import Foundation
import Locking
@_spi(ServerSupport) import StreamCore
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
    /// The value and the completion arrive on the client's driver thread, one transfer's after
    /// another's, as URLSession's on its serial delegate queue.
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

        private final class Inner<Downstream: Subscriber>: Subscription, TransferCompletionSink, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private enum State {
                case waitingForDemand(SerialSubscriber<Downstream>)
                case running(SerialSubscriber<Downstream>, CurlTransferToken)
                case done
            }

            private let state: Locked<State>
            private let request: URLRequest
            private let client: CurlHTTPClient

            init(request: URLRequest, client: CurlHTTPClient, downstream: Downstream) {
                self.request = request
                self.client = client
                state = Locked(.waitingForDemand(SerialSubscriber(downstream)))
            }

            var description: String { "DataTaskPublisher" }

            func request(_ demand: Subscribers.Demand) {
                guard demand > 0 else { return }
                weak let sink: (any TransferCompletionSink)? = self
                state.withLock { state in
                    guard case .waitingForDemand(let downstream) = state else { return }
                    // Started under the lock, so a completion cannot overtake the state change.
                    let token = client.start(request) { result in sink?.finish(result) }
                    state = .running(downstream, token)
                }
            }

            func finish(_ result: Result<Output, URLError>) {
                let target = state.withLock { state -> SerialSubscriber<Downstream>? in
                    guard case .running(let downstream, _) = state else { return nil }
                    state = .done
                    return downstream
                }
                guard let target else { return }
                switch result {
                case .success(let output):
                    _ = target.receive(output)
                    target.receive(completion: .finished)
                case .failure(let error):
                    target.receive(completion: .failure(error))
                }
            }

            func cancel() {
                let previous = state.withLock { state -> State in
                    defer { state = .done }
                    return state
                }
                if case .running(_, let token) = previous { token.cancel() }
            }
        }
    }
}

/// Receives a transfer's outcome; lets the completion closure avoid capturing generic types.
private protocol TransferCompletionSink: AnyObject, Sendable {
    func finish(_ result: Result<(data: Data, response: HTTPURLResponse), URLError>)
}
