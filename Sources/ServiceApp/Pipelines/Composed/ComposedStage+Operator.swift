import Dispatch
import Foundation
import GithubProxy
import PipelineWire
import StreamCore

extension ComposedStage {
    /// What a stage's operator may use: the session's scheduler and GitHub client, the lookups'
    /// activity and quota, and the limits that bound what a stage may hold.
    struct Tools {
        let scheduler: AnySchedulerOf<DispatchQueue>
        let client: GithubClient
        let activity: NetworkActivity
        let quota: (any UpstreamQuota)?
        let limits: ComposerLimits
        /// Results per `github-search` page (`search.perPage`).
        let searchPerPage: Int
    }

    /// The flow after this stage's StreamCore operator; `retries` is the `retry` stage that
    /// follows a lookup (0 when none does). The definition was validated, so every value this
    /// stage receives is of a kind it accepts; one of another kind passes through unchanged.
    ///
    /// What a stage holds is bounded by the limits: `delay` at most `maxCount` values on their
    /// way (more are dropped while it is full: its upstream has no demand for them), a `concat`
    /// lookup at most `maxCount` values waiting their turn, a `collect` by time at most
    /// `maxCount` values per group, `scan` `joined` the last `maxCount` strings. A `flatMap`
    /// lookup drops what comes while `maxPublishers` lookups run (Combine's back pressure).
    func applied(to flow: AnyPublisher<FlowValue, Never>, retries: Int, tools: Tools) -> AnyPublisher<FlowValue, Never> {
        let scheduler = tools.scheduler
        switch self {
        case .throttle(let ms, let latest):
            return flow.throttle(for: .milliseconds(ms), scheduler: scheduler, latest: latest).eraseToAnyPublisher()
        case .debounce(let ms):
            return flow.debounce(for: .milliseconds(ms), scheduler: scheduler).eraseToAnyPublisher()
        case .delay(let ms):
            return flow
                .flatMap(maxPublishers: .max(tools.limits.maxCount)) { value in
                    Just(value).delay(for: .milliseconds(ms), scheduler: scheduler)
                }
                .eraseToAnyPublisher()
        case .removeDuplicates:
            return flow.removeDuplicates().eraseToAnyPublisher()
        case .filter(let minLength, let maxLength, let prefix):
            return flow.filter { value in
                if let minLength, let length = value.length, length < minLength { return false }
                if let maxLength, let length = value.length, length > maxLength { return false }
                if let prefix, case .string(let text) = value, !text.hasPrefix(prefix) { return false }
                return true
            }
            .eraseToAnyPublisher()
        case .map(let function):
            return flow.map { function.apply(to: $0) }.eraseToAnyPublisher()
        case .scan(.count):
            return flow.scan(FlowValue.number(0)) { count, _ in
                guard case .number(let n) = count else { return count }
                return .number(n + 1)
            }
            .eraseToAnyPublisher()
        case .scan(.joined(let separator)):
            let kept = tools.limits.maxCount
            return flow
                .scan([String]()) { texts, value in
                    guard case .string(let text) = value else { return texts }
                    return Array((texts + [text]).suffix(kept))
                }
                .map { FlowValue.string($0.joined(separator: separator)) }
                .eraseToAnyPublisher()
        case .collect(.count(let count)):
            return flow.collect(count).map(FlowValue.array).eraseToAnyPublisher()
        case .collect(.ms(let ms)):
            return flow
                .collect(.byTimeOrCount(scheduler, .milliseconds(ms), tools.limits.maxCount))
                .map(FlowValue.array)
                .eraseToAnyPublisher()
        case .prepend(let value):
            return flow.prepend(FlowValue(value)).eraseToAnyPublisher()
        case .lookup(let source, let flatten):
            let lookup = Self.lookup(source, retries: retries, tools: tools)
            switch flatten {
            case .switchToLatest:
                return flow.map(lookup).switchToLatest().eraseToAnyPublisher()
            case .flatMap(let maxPublishers):
                return flow.flatMap(maxPublishers: .max(maxPublishers), lookup).eraseToAnyPublisher()
            case .concat:
                // One lookup after another, none dropped: values typed meanwhile wait in a
                // buffer of at most `maxCount` (the newest dropped beyond it).
                return flow
                    .buffer(size: tools.limits.maxCount, prefetch: .byRequest, whenFull: .dropNewest)
                    .flatMap(maxPublishers: .max(1), lookup)
                    .eraseToAnyPublisher()
            }
        case .retry:
            // Applied to the lookup before it (`retries`): here its results pass through.
            return flow
        }
    }

    /// One lookup of `source` for a value: the same client calls as `/ws` and `/ws/search`.
    private static func lookup(
        _ source: LookupSource, retries: Int, tools: Tools
    ) -> @Sendable (FlowValue) -> AnyPublisher<FlowValue, Never> {
        let (client, activity, quota, perPage) = (tools.client, tools.activity, tools.quota, tools.searchPerPage)
        return { value in
            guard case .string(let text) = value else { return Just(value).eraseToAnyPublisher() }
            switch source {
            case .githubUser:
                return client.retrieveGithubUser(username: text, activity: activity, quota: quota, retries: retries)
                    .map(FlowValue.user)
                    .eraseToAnyPublisher()
            case .githubSearch:
                return client.search(query: text, perPage: perPage, activity: activity, quota: quota, retries: retries)
                    .map(FlowValue.search)
                    .eraseToAnyPublisher()
            }
        }
    }
}

extension MapFunction {
    /// The function applied to one value (of a kind the definition's check let through).
    func apply(to value: FlowValue) -> FlowValue {
        switch (self, value) {
        case (.lowercased, .string(let text)): .string(text.lowercased())
        case (.uppercased, .string(let text)): .string(text.uppercased())
        case (.trimmed, .string(let text)): .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case (.count, _): value.length.map { .number(Double($0)) } ?? value
        case (.login, .user(let result)): .string(result.users.first?.login ?? result.query)
        case (.login, .search(let result)): .string(result.items.first?.login ?? "")
        default: value
        }
    }
}
