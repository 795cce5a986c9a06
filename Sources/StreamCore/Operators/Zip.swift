extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// Pairs the n-th elements of every upstream; finishes as soon as an upstream that finished
    /// has nothing left to pair; the first failure cancels the others (see `CombiningCore`).
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B

        /// Creates a publisher that combines its upstreams.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeCombining(subscriber, mode: .zip, a.subscribe, b.subscribe)
        }
    }

    /// A publisher created by applying the zip function to three upstream publishers.
    ///
    /// Pairs the n-th elements of every upstream; finishes as soon as an upstream that finished
    /// has nothing left to pair; the first failure cancels the others (see `CombiningCore`).
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Failure == B.Failure, A.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B
        /// Upstream publisher number 3.
        public let c: C

        /// Creates a publisher that combines its upstreams.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeCombining(subscriber, mode: .zip, a.subscribe, b.subscribe, c.subscribe)
        }
    }

    /// A publisher created by applying the zip function to four upstream publishers.
    ///
    /// Pairs the n-th elements of every upstream; finishes as soon as an upstream that finished
    /// has nothing left to pair; the first failure cancels the others (see `CombiningCore`).
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B
        /// Upstream publisher number 3.
        public let c: C
        /// Upstream publisher number 4.
        public let d: D

        /// Creates a publisher that combines its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeCombining(subscriber, mode: .zip, a.subscribe, b.subscribe, c.subscribe, d.subscribe)
        }
    }
}

extension Publisher {
    /// Combines elements from this publisher with the elements of others, pairing them in order (with 1 other publisher), as a tuple.
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Combines elements from this publisher with the elements of others, pairing them in order (with 1 other publisher), transformed by `transform`.
    public func zip<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
        Publishers.Zip(self, other).map { transform($0.0, $0.1) }
    }

    /// Combines elements from this publisher with the elements of others, pairing them in order (with 2 other publishers), as a tuple.
    public func zip<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q> where Failure == P.Failure, Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines elements from this publisher with the elements of others, pairing them in order (with 2 other publishers), transformed by `transform`.
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where Failure == P.Failure, Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2).map { transform($0.0, $0.1, $0.2) }
    }

    /// Combines elements from this publisher with the elements of others, pairing them in order (with 3 other publishers), as a tuple.
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R> where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines elements from this publisher with the elements of others, pairing them in order (with 3 other publishers), transformed by `transform`.
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T> where Failure == P.Failure, Failure == Q.Failure, Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d }
}
