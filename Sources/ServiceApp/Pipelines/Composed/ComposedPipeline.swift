import Dispatch
import GithubProxy
import PipelineWire
import StreamCore

/// A pipeline a client composed (`/ws/pipelines` with a definition): the input field's values,
/// then each stage's StreamCore operator in the definition's order, then the output events.
///
/// ```
/// input ─▶ stage 0 ─▶ stage 1 ─▶ … ─▶ value events (or result / search events)
/// network activity (when a stage is a lookup) ─▶ activity events
/// ```
/// Built like the catalog's pipelines: on the session's scheduler, lookups through the same
/// GithubClient calls with one `NetworkActivity`, outputs written through the activity's queue
/// so a lookup's result follows its `activity:true` — so the `github-user` preset sends what
/// `/ws` sends. Traces (`"trace":true`) name the lanes `input` and `"<index>:<op>"`.
final class ComposedPipeline: Sendable {
    /// The field's current value, as the client sends it.
    let input = PassthroughSubject<String, Never>()
    private let activity = NetworkActivity()
    private let subscriptions = PipelineSubscriptions()
    /// The longest input value taken (`composer.maxStringLength`), in Unicode scalars.
    private let maxInputLength: Int

    /// Builds the pipeline of a validated `definition`; `write` receives each event (from any
    /// thread, in order per source). Lookups that go upstream are charged to `quota`.
    init(
        definition: PipelineDefinition, limits: ComposerLimits, client: GithubClient, searchPerPage: Int,
        scheduler: AnySchedulerOf<DispatchQueue>, quota: (any UpstreamQuota)? = nil, tracer: PipelineTracer? = nil,
        write: @escaping @Sendable (ComposedEvent) -> Void
    ) {
        maxInputLength = limits.maxStringLength
        let tools = ComposedStage.Tools(
            scheduler: scheduler, client: client, activity: activity, quota: quota, limits: limits, searchPerPage: searchPerPage
        )
        let stages = definition.stages
        let looksUp = stages.contains { if case .lookup = $0 { true } else { false } }
        var cancellables: [AnyCancellable] = []
        if looksUp {
            activity.publisher
                .sink { write(.activity(active: $0)) }
                .store(in: &cancellables)
        }
        var flow = input
            .map(FlowValue.string)
            .trace("input", on: scheduler, to: tracer?.tracer(describe: Self.traceValue))
            .eraseToAnyPublisher()
        for (index, stage) in stages.enumerated() {
            var retries = 0
            if index + 1 < stages.count, case .retry(let times) = stages[index + 1] { retries = times }
            flow = stage.applied(to: flow, retries: retries, tools: tools)
                .trace("\(index):\(stage.op)", on: scheduler, to: tracer?.tracer(describe: Self.traceValue))
                .eraseToAnyPublisher()
        }
        let output: @Sendable (FlowValue) -> Void = if looksUp {
            { [activity] value in activity.deliverInOrder { write(ComposedEvent(output: value)) } }
        } else {
            { value in write(ComposedEvent(output: value)) }
        }
        flow.sink(receiveValue: output).store(in: &cancellables)
        subscriptions.keep(cancellables)
    }

    /// A value in a trace: strings, numbers and booleans as they are, arrays element by element,
    /// a lookup result as its query and status.
    @Sendable static func traceValue(_ value: FlowValue) -> Any? {
        switch value {
        case .string(let text): text
        case .number(let number): number
        case .boolean(let flag): flag
        case .array(let elements): elements.map { traceValue($0) ?? "" }
        case .user(let result): GithubUserPipeline.traceValue(result)
        case .search(let result): SearchPipeline.traceValue(result)
        }
    }

    /// Feeds one client frame: a value goes into the pipeline; an unreadable frame, or a value
    /// longer than `composer.maxStringLength`, is answered with an `error` event through `write`.
    func receive(_ frame: ClientFrame, write: (ComposedEvent) -> Void) {
        switch frame {
        case .input(let value):
            guard value.unicodeScalars.count <= maxInputLength else {
                write(.error(code: "bad_message", message: "an input value may have at most \(maxInputLength) characters"))
                return
            }
            input.send(value)
        case .unreadable(let message): write(.error(code: "bad_message", message: message))
        }
    }

    /// Ends every subscription: lookups in flight are cancelled upstream.
    func cancel() { subscriptions.cancel() }
}
