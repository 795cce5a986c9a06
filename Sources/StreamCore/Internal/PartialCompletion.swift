/// What an operator decided about one upstream value: go on (optionally with a value), or end.
@usableFromInline
enum PartialCompletion<Value, Failure: Error> {
    case `continue`(Value)
    case finished
    case failure(Failure)
}
