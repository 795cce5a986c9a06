extension Subscribers.Completion: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case success
        case error
    }

    /// Decodes `{"success": true}` or `{"success": false, "error": …}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }

    /// Encodes as `{"success": true}` or `{"success": false, "error": …}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}
