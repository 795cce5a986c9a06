import AsyncHTTPClient
import Dispatch
import NIOCore
import NIOHTTP1
import OpenCombine

extension HTTPClient {
    /// The seed's `URLSession.dataTaskPublisher(for:)` on AsyncHTTPClient: one GET when demand
    /// comes, its response (status, headers, body) as the one value, cancelled upstream (the
    /// request aborted) when the subscription is cancelled. Values and completion are delivered
    /// on `queue`, as URLSession delivers on its delegate queue; the subscriber must request and
    /// cancel on `queue` too, so that a cancel and a delivery never race.
    func dataTaskPublisher(for url: String, headers: HTTPHeaders, timeout: TimeAmount, queue: DispatchQueue) -> DataTaskPublisher {
        DataTaskPublisher(client: self, url: url, headers: headers, timeout: timeout, queue: queue)
    }

    struct DataTaskPublisher: Publisher {
        typealias Output = HTTPClient.Response
        typealias Failure = any Error

        let client: HTTPClient
        let url: String
        let headers: HTTPHeaders
        let timeout: TimeAmount
        let queue: DispatchQueue

        func receive<Downstream: Subscriber>(subscriber: Downstream) where Downstream.Input == Output, Downstream.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(publisher: self, downstream: subscriber))
        }
    }

    private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
    where Downstream.Input == HTTPClient.Response, Downstream.Failure == any Error {
        // Sendable: every property is touched only on `publisher.queue` (the AHC callback hops
        // there first).
        private let publisher: DataTaskPublisher
        private var downstream: Downstream?
        private var task: HTTPClient.Task<HTTPClient.Response>?

        init(publisher: DataTaskPublisher, downstream: Downstream) {
            self.publisher = publisher
            self.downstream = downstream
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > 0, downstream != nil, task == nil else { return }
            let request: HTTPClient.Request
            do {
                request = try HTTPClient.Request(url: publisher.url, method: .GET, headers: publisher.headers)
            } catch {
                return finish(.failure(error))
            }
            let task = publisher.client.execute(
                request: request, delegate: ResponseAccumulator(request: request), deadline: .now() + publisher.timeout
            )
            self.task = task
            let delivery = Delivery { [self] in finish($0) }
            let queue = publisher.queue
            task.futureResult.whenComplete { result in
                queue.async { delivery.finish(result) }
            }
        }

        func cancel() {
            downstream = nil
            task?.cancel()
            task = nil
        }

        private func finish(_ result: Result<HTTPClient.Response, any Error>) {
            guard let downstream else { return }
            switch result {
            case .success(let response):
                _ = downstream.receive(response)
                // The subscriber may have cancelled while taking the value (tryMap failing).
                guard self.downstream != nil else { return }
                self.downstream = nil
                task = nil
                downstream.receive(completion: .finished)
            case .failure(let error):
                self.downstream = nil
                task = nil
                downstream.receive(completion: .failure(error))
            }
        }

        var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
    }

    /// Hands a response to a subscription on its queue. Not generic: the client's `@Sendable`
    /// callback captures this, not the subscription and its subscriber's type.
    private final class Delivery: @unchecked Sendable {
        // Sendable: `finish` is only called on the subscription's queue.
        let finish: (Result<HTTPClient.Response, any Error>) -> Void

        init(_ finish: @escaping (Result<HTTPClient.Response, any Error>) -> Void) { self.finish = finish }
    }
}
