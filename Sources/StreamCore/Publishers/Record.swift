import Locking

/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record publisher from an existing recording.
    public init(recording: Recording) { self.recording = recording }

    /// Creates a record publisher to publish the provided outputs, then the completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard !recording.output.isEmpty else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(subscription: Replay(recording: recording, downstream: subscriber))
    }

    /// A recorded sequence of outputs, followed by a completion.
    public struct Recording {
        public typealias Input = Output

        /// The output which will be sent to a subscriber.
        public private(set) var output: [Output]
        /// The completion which will be sent to a subscriber.
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isComplete = false

        /// Sets up a recording in a state ready to receive output.
        public init() {
            output = []
            completion = .finished
        }

        /// Creates a finished recording of the given outputs and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isComplete = true
        }

        /// Adds an output to the recording; traps if the recording is complete.
        public mutating func receive(_ input: Input) {
            precondition(!isComplete, "Invalid call to receive(_:) after completion")
            output.append(input)
        }

        /// Adds a completion to the recording; traps if the recording is already complete.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isComplete, "Invalid call to receive(completion:) after completion")
            self.completion = completion
            isComplete = true
        }
    }

    /// Replays a recording, honouring demand; the completion follows the last value at once.
    private final class Replay<Downstream: Subscriber>: Subscription, CustomStringConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let lock = Lock()
        private var downstream: Downstream?
        private let recording: Recording
        private var next = 0
        private var pending = Subscribers.Demand.none
        private var emitting = false

        init(recording: Recording, downstream: Downstream) {
            self.recording = recording
            self.downstream = downstream
        }

        var description: String { "Record" }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "demand must be positive")
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            pending += demand
            // A request from inside receive(_:) only raises the demand: the loop below,
            // already running further up the stack, delivers.
            guard !emitting else {
                lock.unlock()
                return
            }
            emitting = true
            let output = recording.output
            while let downstream, pending > 0, next < output.count {
                pending -= 1
                let value = output[next]
                next += 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                pending += more
            }
            emitting = false
            guard let downstream, next == output.count else {
                lock.unlock()
                return
            }
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: recording.completion)
        }

        func cancel() {
            lock.lock()
            downstream = nil
            lock.unlock()
        }
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a recording (always complete).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        )
    }

    /// Encodes the recording into `encoder`, as `encode(to:)` (Apple's name for it).
    public func encode(into encoder: Encoder) throws { try encode(to: encoder) }

    /// Encodes the outputs and the completion: `{"completion":{"success":true},"output":[…]}`, a
    /// failure as `{"success":false,"error":…}`. The order of keys in the text is the encoder's
    /// (`JSONEncoder` writes a dictionary's order unless told `.sortedKeys`), as with Apple's.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record publisher from its recording.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record publisher's recording.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
