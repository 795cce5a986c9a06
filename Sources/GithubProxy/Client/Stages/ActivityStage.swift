import StreamCore

extension Publisher {
    /// The activity stage (the seed's `handleEvents` feeding `networkActivityPublisher`):
    /// `activity` is told when a subscription starts and when it completes or is cancelled
    /// (`NetworkActivity.end` ends an activity once, whichever comes first).
    func reportingActivity(to activity: NetworkActivity?) -> AnyPublisher<Output, Failure> {
        guard let activity else { return eraseToAnyPublisher() }
        return Deferred { [self] in
            let token = activity.begin()
            return handleEvents(receiveCompletion: { _ in activity.end(token) }, receiveCancel: { activity.end(token) })
        }
        .eraseToAnyPublisher()
    }
}
