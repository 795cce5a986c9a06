import Dispatch
import GithubProxy
import StreamCore

/// One pipeline the service serves: its catalog entry (`GET /api/pipelines`) and how a new
/// instance starts — for a WebSocket session on `path`, or a subscription of `/ws/pipelines`
/// (the same `start` for both). Adding a pipeline is a folder under `Pipelines/` with its
/// descriptor, plus one line in `PipelineDescriptor.all`.
struct PipelineDescriptor: Sendable {
    /// What a session may use: the GitHub client, the configuration, the scheduler of its timers,
    /// and fair use (whose quota the session's lookups are charged to).
    struct Context: Sendable {
        let client: GithubClient
        let config: ServiceConfig
        let scheduler: AnySchedulerOf<DispatchQueue>
        let fairUse: FairUse
        /// Receives how long each `github-user` answer that needed no upstream request took
        /// (`CachedResultTimer`); by default nowhere.
        var cachedResult: @Sendable (Duration) -> Void = { _ in }
    }

    /// The `pipeline` of the `hello` event.
    let name: String
    /// The WebSocket path.
    let path: String
    /// The browser page.
    let page: String
    /// The named stages in flow order (the lanes of a trace).
    let stages: [String]
    /// The messages clients send and receive, named as in `AsyncAPIMessages`.
    let messages: (send: [String], receive: [String])
    /// How `/openapi.json` describes the upgrade on `path`.
    let upgrade: UpgradeDocumentation
    /// Starts a new instance (its `hello` first) whose lookups are charged to the quota.
    let start: @Sendable (Context, _ quota: any UpstreamQuota, PipelineInstance.Output) -> PipelineInstance

    /// Every pipeline, in catalog order.
    static let all: [PipelineDescriptor] = [.githubUser, .search, .form]

    /// The OpenAPI operation of a pipeline's WebSocket upgrade.
    struct UpgradeDocumentation: Sendable {
        let operationId: String, summary: String, description: String
    }

    /// The pipeline called `name` in the catalog.
    static func named(_ name: String) -> PipelineDescriptor? { all.first { $0.name == name } }
}

extension PipelineDescriptor {
    /// The seed's GithubViewController username field.
    static let githubUser = PipelineDescriptor(
        name: "github-user", path: "/ws", page: "/",
        stages: GithubUserPipeline.Stage.names,
        messages: (["input", "plainText"], ["hello", "activity", "result", "error", "trace"]),
        upgrade: .init(
            operationId: "openGithubUserPipeline", summary: "WebSocket upgrade: the GitHub-user keystroke pipeline",
            description: #"Client text frames carry the current value of the username field, as {"type":"input","value":"hec"} or as plain text (one trailing newline removed). The server sends one JSON object per text frame: hello, activity, result and error events. Binary frames close the connection with 1003."#)
    ) { context, quota, output in
        GithubUserInstance.start(
            client: context.client, throttle: context.config.throttle,
            minLength: context.config.minLength, scheduler: context.scheduler, quota: quota, output: output,
            timer: CachedResultTimer(record: context.cachedResult)
        )
    }

    /// The seed's search bar with pull-to-refresh.
    static let search = PipelineDescriptor(
        name: "github-search", path: "/ws/search", page: "/search",
        stages: SearchPipeline.Stage.names,
        messages: (["input", "refresh", "plainText"], ["searchHello", "activity", "refreshing", "search", "error", "trace"]),
        upgrade: .init(
            operationId: "openSearchPipeline", summary: "WebSocket upgrade: the search pipeline with pull-to-refresh",
            description: #"Client text frames carry the search field's text, as {"type":"input","value":"swift"} or as plain text, or the refresh gesture {"type":"refresh"}. The server sends hello, activity, refreshing, search and error events (see /asyncapi.json). Binary frames close the connection with 1003."#)
    ) { context, quota, output in
        SearchInstance.start(
            client: context.client, settings: context.config.search, scheduler: context.scheduler, quota: quota, output: output
        )
    }

    /// The seed's sign-up form (ReactiveFormModel).
    static let form = PipelineDescriptor(
        name: "form", path: "/ws/form", page: "/form",
        stages: FormPipeline.Stage.names,
        messages: (["field", "submit"], ["formHello", "validation", "submitState", "submitted", "error", "trace"]),
        upgrade: .init(
            operationId: "openFormPipeline", summary: "WebSocket upgrade: the sign-up form pipeline",
            description: #"Client text frames are {"type":"field","name":"value1|value2|value2_repeat","value":"…"} and {"type":"submit"}. The server sends hello, validation, submit, submitted and error events. Binary frames close the connection with 1003."#)
    ) { context, _, output in
        FormInstance.start(scheduler: context.scheduler, output: output)
    }

    /// An entry of `GET /api/pipelines`.
    struct CatalogEntry: Encodable, Equatable {
        let name: String, path: String, page: String, stages: [String]
    }

    /// The catalog entry of this pipeline.
    var catalogEntry: CatalogEntry { CatalogEntry(name: name, path: path, page: page, stages: stages) }
}
