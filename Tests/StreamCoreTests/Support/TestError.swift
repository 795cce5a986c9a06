/// Errors the tests send through pipelines.
enum TestError: Error, Equatable {
    case boom
    case other(Int)
}
