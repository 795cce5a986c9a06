/// When a `collect` stage emits the array it gathered.
public enum CollectTrigger: Equatable, Hashable, Sendable {
    /// Every `count` values (and what is left when the input ends).
    case count(Int)
    /// Every `ms` milliseconds (the values of that window, when there were any).
    case ms(Int)
}
