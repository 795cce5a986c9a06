// Merge5 … Merge8: the wider arities of `Publishers.Merge` (see Merge.swift).

extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output {
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
        /// Upstream publisher number 5.
        public let e: E

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe])
        }
    }

    /// A publisher created by applying the merge function to six upstream publishers.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output {
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
        /// Upstream publisher number 5.
        public let e: E
        /// Upstream publisher number 6.
        public let f: F

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe])
        }
    }

    /// A publisher created by applying the merge function to seven upstream publishers.
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output {
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
        /// Upstream publisher number 5.
        public let e: E
        /// Upstream publisher number 6.
        public let f: F
        /// Upstream publisher number 7.
        public let g: G

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe, g.subscribe])
        }
    }

    /// A publisher created by applying the merge function to eight upstream publishers.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, A.Failure == C.Failure, A.Output == C.Output, A.Failure == D.Failure, A.Output == D.Output, A.Failure == E.Failure, A.Output == E.Output, A.Failure == F.Failure, A.Output == F.Output, A.Failure == G.Failure, A.Output == G.Output, A.Failure == H.Failure, A.Output == H.Output {
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
        /// Upstream publisher number 5.
        public let e: E
        /// Upstream publisher number 6.
        public let f: F
        /// Upstream publisher number 7.
        public let g: G
        /// Upstream publisher number 8.
        public let h: H

        /// Creates a publisher that interleaves the elements of its upstreams.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerging(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe, g.subscribe, h.subscribe])
        }
    }
}

extension Publisher {
    /// Combines elements from this publisher with those from 4 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Combines elements from this publisher with those from 5 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F) -> Publishers.Merge6<Self, B, C, D, E, F>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output, Failure == F.Failure, Output == F.Output {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Combines elements from this publisher with those from 6 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output, Failure == F.Failure, Output == F.Output, Failure == G.Failure, Output == G.Output {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Combines elements from this publisher with those from 7 other publishers of the same types,
    /// delivering an interleaved sequence of elements.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where Failure == B.Failure, Output == B.Output, Failure == C.Failure, Output == C.Output, Failure == D.Failure, Output == D.Output, Failure == E.Failure, Output == E.Output, Failure == F.Failure, Output == F.Output, Failure == G.Failure, Output == G.Output, Failure == H.Failure, Output == H.Output {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e }
}

extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f }
}

extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f && lhs.g == rhs.g }
}

extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f && lhs.g == rhs.g && lhs.h == rhs.h }
}
