import Locking

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed
    /// with a given string.
    ///
    /// The lines are Apple's: `receive subscription: (…)`, `request unlimited`,
    /// `request max: (n)`, `receive value: (…)`, `request max: (n) (synchronous)` for non-zero
    /// demand returned from `receive(_:)`, `receive finished`, `receive error: (…)`, `receive cancel`.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The stream that receives the messages; standard output when `nil`.
        public let stream: TextOutputStream?

        /// Creates a publisher that prints log messages for all publishing events.
        public init(upstream: Upstream, prefix: String, to stream: TextOutputStream? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Output

            private enum State {
                case awaitingSubscription
                case subscribed(Subscription)
                case terminal
            }

            private let lock = Lock()
            private let streamLock = Lock()
            private var state = State.awaitingSubscription
            private let downstream: Downstream
            private let prefix: String
            private var stream: TextOutputStream?

            init(downstream: Downstream, prefix: String, stream: TextOutputStream?) {
                self.downstream = downstream
                self.prefix = prefix.isEmpty ? "" : "\(prefix): "
                self.stream = stream
            }

            var description: String { "Print" }

            func receive(subscription: Subscription) {
                log("receive subscription: (\(subscription))")
                lock.lock()
                guard case .awaitingSubscription = state else {
                    lock.unlock()
                    subscription.cancel()
                    return
                }
                state = .subscribed(subscription)
                lock.unlock()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                log("receive value: (\(input))")
                guard !isTerminal else { return .none }
                let demand = downstream.receive(input)
                // Apple logs demand returned from receive(_:) only when there is some.
                if demand > 0 { log(Self.describe(demand) + " (synchronous)") }
                return demand
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                switch completion {
                case .finished: log("receive finished")
                case .failure(let error): log("receive error: (\(error))")
                }
                lock.lock()
                if case .terminal = state {
                    lock.unlock()
                    return
                }
                state = .terminal
                lock.unlock()
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                log(Self.describe(demand))
                lock.lock()
                guard case .subscribed(let subscription) = state else {
                    lock.unlock()
                    return
                }
                lock.unlock()
                subscription.request(demand)
            }

            func cancel() {
                log("receive cancel")
                lock.lock()
                guard case .subscribed(let subscription) = state else {
                    lock.unlock()
                    return
                }
                state = .terminal
                lock.unlock()
                subscription.cancel()
            }

            private var isTerminal: Bool {
                lock.withLock { if case .terminal = state { true } else { false } }
            }

            /// A concrete stream over the existential one, for `Swift.print(_:to:)`.
            private struct Target: TextOutputStream {
                var stream: TextOutputStream
                mutating func write(_ string: String) { stream.write(string) }
            }

            private static func describe(_ demand: Subscribers.Demand) -> String {
                demand.max.map { "request max: (\($0))" } ?? "request unlimited"
            }

            /// Writes one line. A request may arrive on another thread while a value is being
            /// logged, so writes are serialised by `streamLock`, which guards only the stream
            /// (a text stream does not call back into the pipeline).
            private func log(_ message: String) {
                streamLock.lock()
                defer { streamLock.unlock() }
                if let stream {
                    var target = Target(stream: stream)
                    Swift.print(prefix + message, to: &target)
                    self.stream = target.stream
                } else {
                    Swift.print(prefix + message)
                }
            }
        }
    }
}

extension Publisher {
    /// Prints log messages for all publishing events, to `stream` or to standard output.
    public func print(_ prefix: String = "", to stream: TextOutputStream? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
