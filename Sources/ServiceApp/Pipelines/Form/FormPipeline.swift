import Foundation
import StreamCore

/// The seed's FormViewController / the book's ReactiveFormModel, for one `/ws/form` session.
///
/// ```
/// value1 ─▶ map { count ≥ 3 ? value1 : nil }                                        = validatedValue1
/// combineLatest(value2, value2_repeat) ─▶ map { equal and count ≥ 5 ? value2 : nil } = validatedValue2
/// combineLatest(validatedValue2, validatedValue1) ─▶ map { both non-nil }           = readyToSubmit
/// ```
/// Counts are `String.count` (what a person sees as characters: `é` and `👍🏽` count 1; spaces
/// count too, as in the seed). Validation and submit events go out at start and then only when
/// they change (`removeDuplicates`).
final class FormPipeline: @unchecked Sendable {
    // Sendable: `ready` is guarded by `lock`; the other properties are immutable and thread-safe.

    static let value1Message = "minimum of 3 characters required"
    static let value2Message = "values must match and have at least 5 characters"

    // The seed's `@Published` properties: each starts as "".
    let value1 = CurrentValueSubject<String, Never>("")
    let value2 = CurrentValueSubject<String, Never>("")
    let value2Repeat = CurrentValueSubject<String, Never>("")
    private let lock = NSLock()
    /// The values `readyToSubmit` last saw valid, or nil while it is false.
    private var ready: (value1: String, value2: String)?
    private let subscriptions = PipelineSubscriptions()

    /// Builds the pipeline; `write` receives the start state at once, then each change.
    init(write: @escaping @Sendable (FormEvent) -> Void) {
        var cancellables = Set<AnyCancellable>()
        let validatedValue1 = value1.map { $0.count >= 3 ? $0 : nil }
        let validatedValue2 = value2.combineLatest(value2Repeat).map { value, repeated in
            value == repeated && value.count >= 5 ? value : nil
        }
        validatedValue1
            .map { $0 != nil }
            .removeDuplicates()
            .sink { write(.validation(field: "value1", valid: $0, message: $0 ? "" : Self.value1Message)) }
            .store(in: &cancellables)
        validatedValue2
            .map { $0 != nil }
            .removeDuplicates()
            .sink { write(.validation(field: "value2", valid: $0, message: $0 ? "" : Self.value2Message)) }
            .store(in: &cancellables)
        validatedValue2.combineLatest(validatedValue1)
            .map { value2, value1 -> (value1: String, value2: String)? in
                guard let value1, let value2 else { return nil }
                return (value1, value2)
            }
            .handleEvents(receiveOutput: { [weak self] values in self?.setReady(values) })
            .map { $0 != nil }
            .removeDuplicates()
            .sink { write(.submit(allowed: $0)) }
            .store(in: &cancellables)
        subscriptions.keep(cancellables)
    }

    private func setReady(_ values: (value1: String, value2: String)?) { lock.withLock { ready = values } }

    /// Feeds one client frame.
    func receive(_ frame: FormFrame, write: (FormEvent) -> Void) {
        switch frame {
        case .field(.value1, let value): value1.send(value)
        case .field(.value2, let value): value2.send(value)
        case .field(.value2Repeat, let value): value2Repeat.send(value)
        case .submit:
            if let ready = lock.withLock({ ready }) {
                write(.submitted(value1: ready.value1, value2: ready.value2))
            } else {
                write(.error(code: "not_ready", message: "the form is not valid yet"))
            }
        case .unreadable(let message):
            write(.error(code: "bad_message", message: message))
        }
    }

    /// Ends every subscription.
    func cancel() { subscriptions.cancel() }
}
