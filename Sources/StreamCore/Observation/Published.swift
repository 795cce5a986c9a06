import Locking

/// A type that publishes a property marked with an attribute.
///
/// Use it on a property of a class: `$property` is a publisher that emits the current value
/// on subscription, then each new value when the property is about to change (while the
/// property still holds the old one), like Apple's. In an `ObservableObject` a change also
/// fires the object's `objectWillChange` first.
@propertyWrapper
public struct Published<Value> {
    /// The storage, shared by every copy of the wrapper (so `Mirror` sees the live one).
    let storage: PublishedStorage<Value>

    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) { storage = PublishedStorage(wrappedValue) }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) { self.init(wrappedValue: initialValue) }

    /// Not available: `@Published` is only available on properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher, `$property`.
    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        // Present so `assign(to: &$property)` can take it inout; there is nothing to replace.
        // swiftlint:disable:next unused_setter_value
        set {}
    }

    /// Reads and writes the value through the enclosing class instance.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set { object[keyPath: storageKeyPath].storage.set(newValue) }
    }

    /// A publisher for properties marked with the `@Published` attribute.
    public struct Publisher: StreamCore.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        let storage: PublishedStorage<Value>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.subject.receive(subscriber: subscriber)
        }
    }
}

/// The live state of one `@Published` property.
///
/// Sendable: `current`, `lazySubject`, `willChange` and `assignments` are guarded by `lock`.
final class PublishedStorage<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var current: Value
    private var lazySubject: CurrentValueSubject<Value, Never>?
    private var willChange: ObservableObjectPublisher?
    /// Upstreams attached with `assign(to:)`; they live as long as the property.
    private var assignments: [Subscription] = []

    init(_ value: Value) { current = value }

    deinit {
        for subscription in assignments { subscription.cancel() }
    }

    var value: Value { lock.withLock { current } }

    /// The subject behind `$property`, made on first use; it holds the latest value sent.
    var subject: CurrentValueSubject<Value, Never> {
        lock.withLock {
            if let lazySubject { return lazySubject }
            let subject = CurrentValueSubject<Value, Never>(current)
            lazySubject = subject
            return subject
        }
    }

    /// Announces the change, publishes the new value, then stores it (Apple's willSet order).
    func set(_ newValue: Value) {
        lock.lock()
        let willChange = self.willChange
        let subject = lazySubject
        lock.unlock()
        willChange?.send()
        subject?.send(newValue)
        lock.lock()
        current = newValue
        lock.unlock()
    }

    /// The object's `objectWillChange`: installs `candidate` unless one is already installed.
    func objectWillChange(installing candidate: () -> ObservableObjectPublisher) -> ObservableObjectPublisher {
        lock.withLock {
            if let willChange { return willChange }
            let publisher = candidate()
            willChange = publisher
            return publisher
        }
    }

    /// Keeps an `assign(to:)` upstream alive until this property goes away.
    func retain(_ subscription: Subscription) {
        lock.withLock { assignments.append(subscription) }
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked
    /// as a publisher. The subscription lives as long as the property; no cancellable.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(AssignToPublished(storage: published.storage))
    }
}

/// Writes each value into a `@Published` property (firing `objectWillChange`, as a normal
/// assignment does). Holds the property weakly; the property holds the upstream subscription.
private final class AssignToPublished<Input>: Subscriber, CustomStringConvertible, @unchecked Sendable {
    // Sendable: `storage` is only read and written with `lock` held.
    typealias Failure = Never

    private let lock = Lock()
    private weak var storage: PublishedStorage<Input>?

    init(storage: PublishedStorage<Input>) { self.storage = storage }

    var description: String { "Assign" }

    func receive(subscription: Subscription) {
        guard let storage = lock.withLock({ self.storage }) else {
            subscription.cancel()
            return
        }
        storage.retain(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { storage }?.set(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.withLock { storage = nil }
    }
}
