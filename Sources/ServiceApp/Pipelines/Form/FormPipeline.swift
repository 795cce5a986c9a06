import Dispatch
import Foundation
import Locking
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
final class FormPipeline: Sendable {
    static let value1Message = "minimum of 3 characters required"
    static let value2Message = "values must match and have at least 5 characters"

    // The seed's `@Published` properties: each starts as "".
    let value1 = CurrentValueSubject<String, Never>("")
    let value2 = CurrentValueSubject<String, Never>("")
    let value2Repeat = CurrentValueSubject<String, Never>("")
    /// The values `readyToSubmit` last saw valid, or nil while it is false.
    private let ready = Locked<ReadyValues?>(nil)
    private struct ReadyValues: Sendable {
        let value1: String, value2: String
    }
    private let subscriptions = PipelineSubscriptions()

    /// Builds the pipeline; `write` receives the start state at once, then each change. With
    /// `tracing` (`?trace=1`), every stage reports its events, stamped on that scheduler.
    init(tracing: (tracer: PipelineTracer, scheduler: AnySchedulerOf<DispatchQueue>)? = nil, write: @escaping @Sendable (FormEvent) -> Void) {
        var cancellables: [AnyCancellable] = []
        // The validation events and readyToSubmit each subscribe to the validated values; only
        // readyToSubmit's path is traced, so each stage's events appear once in a trace.
        let untraced = (tracer: PipelineTracer?.none, scheduler: tracing?.scheduler ?? DispatchQueue.global().eraseToAnyScheduler())
        let traced = (tracer: tracing?.tracer, scheduler: untraced.scheduler)
        let validatedValue1 = validated1(untraced)
        let validatedValue2 = validated2(untraced)
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
        validated2(traced).combineLatest(validated1(traced))
            .map { value2, value1 -> (value1: String, value2: String)? in
                guard let value1, let value2 else { return nil }
                return (value1, value2)
            }
            .traced(Stage.readyToSubmit, traced.tracer, on: traced.scheduler, describe: { $0 != nil })
            .handleEvents(receiveOutput: { [weak self] values in self?.setReady(values) })
            .map { $0 != nil }
            .removeDuplicates()
            .sink { write(.submit(allowed: $0)) }
            .store(in: &cancellables)
        subscriptions.keep(cancellables)
    }

    private typealias Tracing = (tracer: PipelineTracer?, scheduler: AnySchedulerOf<DispatchQueue>)

    /// `value1 ─▶ map { count ≥ 3 ? value1 : nil }`.
    private func validated1(_ tracing: Tracing) -> AnyPublisher<String?, Never> {
        value1.traced(Stage.value1, tracing.tracer, on: tracing.scheduler)
            .map { $0.count >= 3 ? $0 : nil }
            .traced(Stage.validatedValue1, tracing.tracer, on: tracing.scheduler, describe: { $0 })
            .eraseToAnyPublisher()
    }

    /// `combineLatest(value2, value2_repeat) ─▶ map { equal and count ≥ 5 ? value2 : nil }`.
    private func validated2(_ tracing: Tracing) -> AnyPublisher<String?, Never> {
        value2.traced(Stage.value2, tracing.tracer, on: tracing.scheduler)
            .combineLatest(value2Repeat.traced(Stage.value2Repeat, tracing.tracer, on: tracing.scheduler))
            .map { value, repeated in value == repeated && value.count >= 5 ? value : nil }
            .traced(Stage.validatedValue2, tracing.tracer, on: tracing.scheduler, describe: { $0 })
            .eraseToAnyPublisher()
    }

    private func setReady(_ values: (value1: String, value2: String)?) {
        ready.withLock { $0 = values.map { ReadyValues(value1: $0.value1, value2: $0.value2) } }
    }

    /// Feeds one client frame.
    func receive(_ frame: FormFrame, write: (FormEvent) -> Void) {
        switch frame {
        case .field(.value1, let value): value1.send(value)
        case .field(.value2, let value): value2.send(value)
        case .field(.value2Repeat, let value): value2Repeat.send(value)
        case .submit:
            if let ready = ready.withLock({ $0 }) {
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
