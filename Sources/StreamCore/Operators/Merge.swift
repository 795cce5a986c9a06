extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe])
        }
    }

    /// A publisher created by applying the merge function to three upstream publishers.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B
        /// Upstream publisher number 3.
        public let c: C

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe])
        }
    }

    /// A publisher created by applying the merge function to four upstream publishers.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure, A.Output == D.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A
        /// Upstream publisher number 2.
        public let b: B
        /// Upstream publisher number 3.
        public let c: C
        /// Upstream publisher number 4.
        public let d: D

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe])
        }
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from 1 other publisher of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher>(with other: B) -> Publishers.Merge<Self, B>
    where Failure == B.Failure, Output == B.Output {
        Publishers.Merge(self, other)
    }

    /// Combines elements from this publisher with those from 2 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Combines elements from this publisher with those from 3 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d }
}
