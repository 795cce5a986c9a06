import PipelineWire
import StreamCore

extension Subscribers.Demand {
    /// A demand read off the wire (the codec's own type) as StreamCore's.
    init(_ demand: MuxDemand) {
        switch demand {
        case .unlimited: self = .unlimited
        case .max(let count): self = .max(count)
        }
    }
}
