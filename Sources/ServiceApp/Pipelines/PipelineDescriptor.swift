import Dispatch
import GithubProxy
import HTTPServer
import StreamCore

/// One pipeline the service serves: its catalog entry (`GET /api/pipelines`) and how a new
/// WebSocket session on `path` gets its own instance. Adding a pipeline is a folder under
/// `Pipelines/` with its descriptor, plus one line in `PipelineDescriptor.all`.
struct PipelineDescriptor: Sendable {
    /// What a session may use: the GitHub client, the configuration, the scheduler of its timers,
    /// and fair use (whose quota the session's lookups are charged to).
    struct Context: Sendable {
        let client: GithubClient
        let config: ServiceConfig
        let scheduler: AnySchedulerOf<DispatchQueue>
        let fairUse: FairUse
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
    /// Binds a new session to a new pipeline instance.
    let attach: @Sendable (WebSocketSession, Context) -> Void

    /// Every pipeline, in catalog order.
    static let all: [PipelineDescriptor] = [.githubUser, .search, .form]
}

extension PipelineDescriptor {
    /// The seed's GithubViewController username field.
    static let githubUser = PipelineDescriptor(
        name: "github-user", path: "/ws", page: "/",
        stages: ["input", "throttle", "removeDuplicates", "lookup", "switchToLatest"],
        messages: (["input", "plainText"], ["hello", "activity", "result", "error", "trace"])
    ) { session, context in
        GithubUserSession.attach(
            session, client: context.client, throttleMs: Int(context.config.throttle.wholeMilliseconds),
            minLength: context.config.minLength, scheduler: context.scheduler, quota: context.fairUse.quota(for: session.request)
        )
    }

    /// The seed's search bar with pull-to-refresh.
    static let search = PipelineDescriptor(
        name: "github-search", path: "/ws/search", page: "/search",
        stages: ["input", "debounce", "removeDuplicates", "refresh", "withLatestFrom", "delay", "merge", "search", "switchToLatest"],
        messages: (["input", "refresh", "plainText"], ["searchHello", "activity", "refreshing", "search", "error", "trace"])
    ) { session, context in
        SearchSession.attach(
            session, client: context.client, settings: context.config.search, scheduler: context.scheduler,
            quota: context.fairUse.quota(for: session.request)
        )
    }

    /// The seed's sign-up form (ReactiveFormModel).
    static let form = PipelineDescriptor(
        name: "form", path: "/ws/form", page: "/form",
        stages: ["value1", "value2", "value2_repeat", "validatedValue1", "validatedValue2", "readyToSubmit"],
        messages: (["field", "submit"], ["formHello", "validation", "submitState", "submitted", "error", "trace"])
    ) { session, context in
        FormSession.attach(session, scheduler: context.scheduler)
    }

    /// An entry of `GET /api/pipelines`.
    struct CatalogEntry: Encodable, Equatable {
        let name: String, path: String, page: String, stages: [String]
    }

    /// The catalog entry of this pipeline.
    var catalogEntry: CatalogEntry { CatalogEntry(name: name, path: path, page: page, stages: stages) }
}
