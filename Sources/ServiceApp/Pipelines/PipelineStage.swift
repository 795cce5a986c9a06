/// A pipeline's stages, declared once: the catalog lists them (`GET /api/pipelines`, the marble
/// diagram's lanes) and the pipeline's `traced` calls name them, in flow order.
protocol PipelineStage: RawRepresentable<String>, CaseIterable {}

extension PipelineStage {
    /// Every stage's name, in flow order.
    static var names: [String] { allCases.map(\.rawValue) }
}

extension GithubUserPipeline {
    /// The stages of the seed's username pipeline.
    enum Stage: String, PipelineStage {
        case input, throttle, removeDuplicates, lookup, switchToLatest
    }
}

extension SearchPipeline {
    /// The stages of the seed's search bar with pull-to-refresh.
    enum Stage: String, PipelineStage {
        case input, debounce, removeDuplicates, refresh, withLatestFrom, delay, merge, search, switchToLatest
    }
}

extension FormPipeline {
    /// The stages of the seed's sign-up form.
    enum Stage: String, PipelineStage {
        case value1, value2
        case value2Repeat = "value2_repeat"
        case validatedValue1, validatedValue2, readyToSubmit
    }
}
