extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// Like Apple's, this is a `map`: no publisher type of its own.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
