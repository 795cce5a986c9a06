import Metrics

/// The metrics of `/ws/pipelines`, over every connection: live subscriptions, events waiting for
/// demand, and subscriptions ended by `overflow`.
struct MuxMetrics: Sendable {
    let subscriptions = Meter(label: "mux_subscriptions")
    let heldEvents = Meter(label: "mux_events_held")
    let overflows = Counter(label: "mux_overflows_total")
    let started = Counter(label: "mux_subscriptions_total")
}
