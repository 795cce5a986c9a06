import PipelineWire
import StreamCore

extension MuxDemand {
    /// A subscriber's demand as the wire codec writes it.
    init(_ demand: Subscribers.Demand) {
        self = demand.max.map { .max($0) } ?? .unlimited
    }
}
