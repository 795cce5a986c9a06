/// A type of object with a publisher that emits before the object has changed.
///
/// By default `objectWillChange` is an `ObservableObjectPublisher` that emits before any of
/// the object's `@Published` properties changes. Apple's compiler synthesises it; here it is
/// found by reflecting over the object's `@Published` fields, superclasses included.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
        where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before any `@Published` property of the object changes.
    ///
    /// The first `@Published` field decides which publisher the object uses (installing a new
    /// one if it has none); every other field then adopts it, so concurrent first calls agree.
    /// An object without `@Published` fields gets a fresh publisher that never emits.
    public var objectWillChange: ObservableObjectPublisher {
        var chosen: ObservableObjectPublisher?
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let field = child.value as? any PublishedField else { continue }
                let publisher = field.objectWillChange(installing: { chosen ?? ObservableObjectPublisher() })
                if chosen == nil { chosen = publisher }
            }
            mirror = current.superclassMirror
        }
        return chosen ?? ObservableObjectPublisher()
    }
}

/// What `objectWillChange` needs from a `@Published` field, whatever its value type.
private protocol PublishedField {
    func objectWillChange(installing candidate: () -> ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: PublishedField {
    fileprivate func objectWillChange(
        installing candidate: () -> ObservableObjectPublisher
    ) -> ObservableObjectPublisher {
        storage.objectWillChange(installing: candidate)
    }
}

/// A publisher that publishes changes from observable objects.
///
/// Sendable: its state is a subject, whose state is behind the subject's lock.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    private let subject = PassthroughSubject<Void, Never>()

    /// Creates an observable object publisher instance.
    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends the changed value to the downstream subscriber.
    public func send() { subject.send(()) }
}
