import Foundation
import Metrics

/// Handles one request. Called by the server layer with path parameters filled in
/// (``HTTPRequest/pathParameters``); it may suspend (e.g. to await a lookup).
public typealias HTTPHandler = @Sendable (HTTPRequest) async -> HTTPResponse

/// Handles one request without suspending; runs on the connection's own thread, so it must be
/// quick (no blocking I/O). The fast path for small answers.
public typealias ImmediateHTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// How a route answers.
public enum RouteResponder: Sendable {
    /// Answered inline, on the connection's thread.
    case immediate(ImmediateHTTPHandler)
    /// Answered by an async handler.
    case deferred(HTTPHandler)
    /// The same answer every time, serialized once (see ``StaticResponse``).
    case fixed(StaticResponse)
}

/// Routes requests by method and path pattern (``RoutePattern``).
///
/// - A path no pattern matches gives `404`.
/// - A path some pattern matches, but not with this method, gives `405` with an `Allow` field.
/// - `HEAD` is served by the `GET` handler where no `HEAD` handler is registered (the response
///   serializer drops the body), and `Allow` lists `HEAD` wherever `GET` is.
/// - When several patterns match, the most specific wins (`/users/me` over `/users/{login}`).
public struct Router: Sendable {
    /// What a request maps to.
    public enum Match: Sendable {
        /// The handler and the parameters captured from the path (percent-decoded).
        case matched(RouteResponder, parameters: [String: String])
        /// No pattern matches the path.
        case notFound
        /// The path matches, the method does not; `allowed` is the `Allow` list.
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    private struct Route: Sendable {
        var method: HTTPMethod
        var pattern: RoutePattern
        var handler: RouteResponder
        /// `http_request_duration_seconds{route=pattern}`.
        var duration: Metrics.Timer
    }

    private var routes: [Route] = []

    /// A route whose pattern has no parameters, with the path it matches as sent.
    private struct LiteralRoute: Sendable {
        var method: HTTPMethod
        var path: String
        var handler: RouteResponder
        var duration: Metrics.Timer
    }

    /// The label of the request durations, one histogram per route pattern (`route`), and
    /// `route="unmatched"` for the 404s and 405s.
    public static let durationLabel = "http_request_duration_seconds"
    /// Made with the router (not once per process), so that it reports to the metrics backend
    /// in place when the application makes its router.
    private let unmatchedDuration = Metrics.Timer(label: durationLabel, dimensions: [("route", "unmatched")])

    /// The literal routes, compiled at registration: a request path without `%` that equals one
    /// is matched by comparing bytes (no splitting, no decoding); a literal pattern is the most
    /// specific there is, so it wins wherever it matches with the request's own method.
    private var literalRoutes: [LiteralRoute] = []

    /// The answer when no pattern matches the path (`404 Not Found` by default).
    public var notFound: @Sendable (HTTPRequest) -> HTTPResponse = { _ in
        HTTPResponse(status: .notFound, text: "Not Found\n")
    }

    /// The answer when the path matches but the method does not (`405` by default); the router
    /// adds the `Allow` field.
    public var methodNotAllowed: @Sendable (HTTPRequest) -> HTTPResponse = { _ in
        HTTPResponse(status: .methodNotAllowed, text: "Method Not Allowed\n")
    }

    public init() {}

    /// Registers `handler` for `method` and `pattern`, replacing an earlier one for the same pair.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping HTTPHandler) {
        add(method, pattern, responder: .deferred(handler))
    }

    /// Registers a handler answered inline, without a task hop (see ``ImmediateHTTPHandler``).
    public mutating func add(_ method: HTTPMethod, _ pattern: String, immediate handler: @escaping ImmediateHTTPHandler) {
        add(method, pattern, responder: .immediate(handler))
    }

    /// Registers a `GET` (and so `HEAD`) handler answered inline.
    public mutating func get(_ pattern: String, immediate handler: @escaping ImmediateHTTPHandler) {
        add(.get, pattern, immediate: handler)
    }

    /// Registers a `GET` (and so `HEAD`) route that always gives `response`, serialized once.
    public mutating func get(_ pattern: String, static response: HTTPResponse) {
        add(.get, pattern, responder: .fixed(StaticResponse(response)))
    }

    private mutating func add(_ method: HTTPMethod, _ pattern: String, responder handler: RouteResponder) {
        let compiled = RoutePattern(pattern)
        routes.removeAll { $0.method == method && $0.pattern.hasSameShape(as: compiled) }
        let duration = Metrics.Timer(label: Self.durationLabel, dimensions: [("route", pattern)])
        routes.append(Route(method: method, pattern: compiled, handler: handler, duration: duration))
        literalRoutes = routes.compactMap { route in
            route.pattern.literalPath.map { LiteralRoute(method: route.method, path: $0, handler: route.handler, duration: route.duration) }
        }
    }

    /// Registers a `GET` (and so `HEAD`) handler.
    public mutating func get(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.get, pattern, handler) }
    /// Registers a `POST` handler.
    public mutating func post(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.post, pattern, handler) }
    /// Registers a `PUT` handler.
    public mutating func put(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.put, pattern, handler) }
    /// Registers a `DELETE` handler.
    public mutating func delete(_ pattern: String, _ handler: @escaping HTTPHandler) { add(.delete, pattern, handler) }

    /// Maps a method and request target (`/a/b?q`, or absolute-form `http://h/a/b`) to a route.
    /// Allocates nothing on the way to a literal route, and only the parameters for a pattern.
    public func match(method: HTTPMethod, target: String) -> Match {
        matchRoute(method: method, target: target).match
    }

    /// Which table the matched route is in (for its request-duration histogram: looked up only
    /// by ``resolveRoute(_:)``, so that matching alone retains nothing).
    private enum Matched {
        case literal(Int)
        case pattern(Int)
        case none
    }

    /// ``match(method:target:)``, and where the route is.
    private func matchRoute(method: HTTPMethod, target: String) -> (match: Match, route: Matched) {
        let path = Self.path(of: target)
        if !path.utf8.contains(0x25) {
            // By index: a `for route in` loop would copy (retain and release) every entry.
            for index in literalRoutes.indices
            where HTTPSyntax.sameBytes(path, literalRoutes[index].path) && literalRoutes[index].method == method {
                return (.matched(literalRoutes[index].handler, parameters: [:]), .literal(index))
            }
        }
        let segments = RoutePattern.segmentCount(of: path)
        if let index = bestRoute(method, path, segments: segments) ?? (method == .head ? bestRoute(.get, path, segments: segments) : nil) {
            return (.matched(routes[index].handler, parameters: routes[index].pattern.parameters(path)), .pattern(index))
        }
        return (unmatched(path, segments: segments), .none)
    }

    /// The 404 or 405 (with the allowed methods) of a path no route of its method matches.
    private func unmatched(_ path: Substring, segments: Int) -> Match {
        var allowed: [HTTPMethod] = []
        let candidates = routes.filter { $0.pattern.segments.count == segments && $0.pattern.matches(path) }
        if candidates.isEmpty { return .notFound }
        for candidate in candidates where !allowed.contains(candidate.method) {
            allowed.append(candidate.method)
            if candidate.method == .get && !candidates.contains(where: { $0.method == .head }) {
                allowed.append(.head)
            }
        }
        return .methodNotAllowed(allowed: allowed)
    }

    /// The index of the most specific route for `method` that matches `path` (of `segments`
    /// segments: only the routes of as many are tried).
    private func bestRoute(_ method: HTTPMethod, _ path: Substring, segments: Int) -> Int? {
        var best: Int?
        for index in routes.indices
        where routes[index].method == method && routes[index].pattern.segments.count == segments && routes[index].pattern.matches(path) {
            if best.map({ routes[index].pattern.isMoreSpecific(than: routes[$0].pattern) }) ?? true { best = index }
        }
        return best
    }

    /// Runs the matching handler (with ``HTTPRequest/pathParameters`` set), or answers
    /// `404 Not Found` / `405 Method Not Allowed` with `Allow`.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch resolve(request) {
        case .immediate(let handler, let request): handler(request)
        case .deferred(let handler, let request): await handler(request)
        case .fixed(let response, _): response.response
        }
    }

    /// What answers `request`: its route's handler with ``HTTPRequest/pathParameters`` set, or
    /// the `404`/`405` fallback (with `Allow`).
    public func resolve(_ request: HTTPRequest) -> Resolution {
        resolveRoute(request).resolution
    }

    /// ``resolve(_:)`` with the histogram the request's duration goes to (the server records it).
    /// Takes the request (it goes into the resolution without a copy).
    func resolveRoute(_ request: consuming HTTPRequest) -> (resolution: Resolution, duration: Metrics.Timer) {
        let (match, route) = matchRoute(method: request.method, target: request.target)
        let duration = switch route {
        case .literal(let index): literalRoutes[index].duration
        case .pattern(let index): routes[index].duration
        case .none: unmatchedDuration
        }
        return (resolution(of: match, consume request), duration)
    }

    private func resolution(of match: consuming Match, _ request: consuming HTTPRequest) -> Resolution {
        switch consume match {
        case .matched(let responder, let parameters):
            if !parameters.isEmpty { request.pathParameters = parameters }
            switch responder {
            case .immediate(let handler): return .immediate(handler, request)
            case .deferred(let handler): return .deferred(handler, request)
            case .fixed(let response): return .fixed(response, request)
            }
        case .notFound:
            return .immediate(notFound, request)
        case .methodNotAllowed(let allowed):
            let fallback = methodNotAllowed
            return .immediate({ request in
                var response = fallback(request)
                response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
                return response
            }, request)
        }
    }

    /// A handler bound to the request it answers.
    public enum Resolution: Sendable {
        case immediate(ImmediateHTTPHandler, HTTPRequest)
        case deferred(HTTPHandler, HTTPRequest)
        case fixed(StaticResponse, HTTPRequest)
    }

    /// The path of a target: without query, and without scheme and authority in absolute-form.
    static func path(of target: String) -> Substring {
        var path = Substring(target)
        if let q = path.utf8.firstIndex(of: 0x3F) { path = path[..<q] }  // "?"
        if path.utf8.first != 0x2F, let scheme = path.range(of: "://") {
            let rest = path[scheme.upperBound...]
            path = rest.utf8.firstIndex(of: 0x2F).map { rest[$0...] } ?? "/"
        }
        return path
    }
}
