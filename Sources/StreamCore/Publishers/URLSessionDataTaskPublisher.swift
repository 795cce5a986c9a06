import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import Locking
#endif

extension URLSession {
    /// A publisher that delivers the results of a data task, as Apple's
    /// `URLSession.DataTaskPublisher` (on Linux, `URLSession` lives in FoundationNetworking).
    ///
    /// Each subscriber gets its own task, started on its first demand; the data and response
    /// arrive as one value followed by `.finished`, a transport error as a `URLError` failure.
    /// Cancelling the subscription cancels the task, and nothing is delivered after it.
    public struct DataTaskPublisher: Publisher, Sendable {
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError

        /// The request this publisher performs.
        public let request: URLRequest
        /// The session that performs it.
        public let session: URLSession

        /// Creates a publisher that performs `request` on `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: Inner(request: request, session: session, downstream: subscriber))
        }

        private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // Sendable: `state` is guarded by `lock`; the downstream is only called outside it.
            private enum State {
                case waitingForDemand(Downstream)
                case running(Downstream, URLSessionDataTask)
                case done
            }

            private let lock = Lock()
            private var state: State
            private let request: URLRequest
            private let session: URLSession

            init(request: URLRequest, session: URLSession, downstream: Downstream) {
                self.request = request
                self.session = session
                state = .waitingForDemand(downstream)
            }

            var description: String { "DataTaskPublisher" }

            func request(_ demand: Subscribers.Demand) {
                precondition(demand > 0, "demand must be positive")
                lock.lock()
                guard case .waitingForDemand(let downstream) = state else {
                    lock.unlock()
                    return
                }
                let relay = CompletionRelay { [self] data, response, error in
                    finish(data: data, response: response, error: error)
                }
                let task = session.dataTask(with: request) { relay.body($0, $1, $2) }
                state = .running(downstream, task)
                lock.unlock()
                task.resume()
            }

            private func finish(data: Data?, response: URLResponse?, error: Error?) {
                lock.lock()
                guard case .running(let downstream, _) = state else {
                    lock.unlock()
                    return
                }
                state = .done
                lock.unlock()
                if let error {
                    downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
                } else if let response {
                    _ = downstream.receive((data ?? Data(), response))
                    downstream.receive(completion: .finished)
                } else {
                    downstream.receive(completion: .failure(URLError(.badServerResponse)))
                }
            }

            func cancel() {
                lock.lock()
                let task: URLSessionDataTask? = if case .running(_, let task) = state { task } else { nil }
                state = .done
                lock.unlock()
                task?.cancel()
            }
        }
    }

    /// Carries a subscription's completion handler into the task's `@Sendable` one (which then
    /// captures nothing generic). Sendable: `body` is immutable, and `finish` takes its own lock.
    private final class CompletionRelay: @unchecked Sendable {
        let body: (Data?, URLResponse?, Error?) -> Void
        init(_ body: @escaping (Data?, URLResponse?, Error?) -> Void) { self.body = body }
    }

    /// Returns a publisher that wraps a data task for `url`.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that wraps a data task for `request`.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }
}
