/// What a composed pipeline may ask for (configuration: `composer.*`). Every definition is
/// checked against them before anything is built.
public struct ComposerLimits: Equatable, Hashable, Sendable {
    /// The most stages a definition may have.
    public var maxStages: Int
    /// The largest `ms` (throttle, debounce, delay, collect).
    public var maxMs: Int
    /// The largest count (collect's `count`, retry's `times`).
    public var maxCount: Int
    /// The longest string parameter (`prefix`, `separator`, prepend's `value`), in Unicode
    /// scalars; also the largest `minLength` and `maxLength`.
    public var maxStringLength: Int
    /// The most lookup stages a definition may have.
    public var maxLookups: Int
    /// The largest `maxPublishers` of a flatMap lookup.
    public var maxPublishers: Int

    /// The limits; the defaults are the service's.
    public init(maxStages: Int = 8, maxMs: Int = 10_000, maxCount: Int = 100, maxStringLength: Int = 256,
                maxLookups: Int = 2, maxPublishers: Int = 8) {
        self.maxStages = maxStages
        self.maxMs = maxMs
        self.maxCount = maxCount
        self.maxStringLength = maxStringLength
        self.maxLookups = maxLookups
        self.maxPublishers = maxPublishers
    }
}
