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
            subscriber.receive(subscription: TransferSubscription(request: request, client: client, downstream: subscriber) { data, head in
                guard let response = head.httpURLResponse else { return .failure(URLError(.badServerResponse)) }
                return .success((data, response))
            })
        }
    }

    /// `dataTaskPublisher(for:)` without Foundation's `HTTPURLResponse`: the data and the
    /// response's head as libcurl received it (the GitHub client's requests).
    func responseHeadPublisher(for request: URLRequest) -> ResponseHeadPublisher {
        ResponseHeadPublisher(request: request, client: self)
    }

    /// A publisher of the data and response head of a request, as `DataTaskPublisher`.
    struct ResponseHeadPublisher: Publisher {
        typealias Output = (data: Data, head: CurlResponseHead)
        typealias Failure = URLError

        let request: URLRequest
        let client: CurlHTTPClient

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: TransferSubscription(request: request, client: client, downstream: subscriber) { data, head in
                .success((data, head))
            })
        }
    }
}

/// One subscription to a transfer: started on the first demand, its outcome made into the
/// downstream's value by `output`.
private final class TransferSubscription<Downstream: Subscriber>: Subscription, TransferCompletionSink, CustomStringConvertible
where Downstream.Failure == URLError {
    typealias Output = @Sendable (Data, CurlResponseHead) -> Result<Downstream.Input, URLError>

    private enum State {
        case waitingForDemand(SerialSubscriber<Downstream>)
        case running(SerialSubscriber<Downstream>, CurlTransferToken)
        case done
    }

    private let state: Locked<State>
    private let request: URLRequest
    private let client: CurlHTTPClient
    private let output: Output

    init(request: URLRequest, client: CurlHTTPClient, downstream: Downstream, output: @escaping Output) {
        self.request = request
        self.client = client
        self.output = output
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

    func finish(_ result: Result<(data: Data, head: CurlResponseHead), URLError>) {
        let target = state.withLock { state -> SerialSubscriber<Downstream>? in
            guard case .running(let downstream, _) = state else { return nil }
            state = .done
            return downstream
        }
        guard let target else { return }
        switch result.flatMap({ output($0.data, $0.head) }) {
        case .success(let value):
            _ = target.receive(value)
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

/// Receives a transfer's outcome; lets the completion closure avoid capturing generic types.
private protocol TransferCompletionSink: AnyObject, Sendable {
    func finish(_ result: Result<(data: Data, head: CurlResponseHead), URLError>)
}
