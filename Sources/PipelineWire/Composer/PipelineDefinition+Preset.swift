extension PipelineDefinition {
    /// A named definition to start from: the playground's presets, listed by `GET /api/operators`.
    public struct Preset: Equatable, Hashable, Sendable {
        /// Its name (`github-user`, `search`, …).
        public let name: String
        /// A title for people.
        public let title: String
        /// What it shows, in a sentence.
        public let summary: String
        /// The definition.
        public let definition: PipelineDefinition

        /// A preset.
        public init(name: String, title: String, summary: String, definition: PipelineDefinition) {
            self.name = name
            self.title = title
            self.summary = summary
            self.definition = definition
        }
    }

    /// The presets: the catalog's lookups composed anew, and the book's comparisons (throttle
    /// against debounce; switchToLatest, flatMap and concat on the demo's slow `slowpoke` user).
    public static let presets: [Preset] = [
        Preset(
            name: "github-user", title: "The username field",
            summary: "Throttle 500 ms keeping the latest, drop repeats, look the user up and keep only the newest request: the github-user pipeline (/ws).",
            definition: PipelineDefinition(stages: [
                .throttle(ms: 500, latest: true), .removeDuplicates, .lookup(.githubUser, flatten: .switchToLatest),
            ])),
        Preset(
            name: "search", title: "The search field",
            summary: "Start from the empty field, debounce 300 ms, drop repeats, search users and keep only the newest request: the github-search pipeline (/ws/search) without its refresh button.",
            definition: PipelineDefinition(stages: [
                .prepend(.string("")), .debounce(ms: 300), .removeDuplicates, .lookup(.githubSearch, flatten: .switchToLatest),
            ])),
        Preset(
            name: "throttle", title: "Throttle",
            summary: "At most one value a second, the first of each second: compare it with the debounce preset.",
            definition: PipelineDefinition(stages: [.throttle(ms: 1000, latest: false)])),
        Preset(
            name: "debounce", title: "Debounce",
            summary: "A value once typing pauses for a second: compare it with the throttle preset.",
            definition: PipelineDefinition(stages: [.debounce(ms: 1000)])),
        Preset(
            name: "switch-to-latest", title: "switchToLatest",
            summary: "Each value cancels the lookup still running: type slowpoke and only the last answer arrives.",
            definition: PipelineDefinition(stages: [.lookup(.githubUser, flatten: .switchToLatest)])),
        Preset(
            name: "flat-map", title: "flatMap",
            summary: "Up to 4 lookups at once, each answer as it comes: type slowpoke and stale answers arrive too, out of order.",
            definition: PipelineDefinition(stages: [.lookup(.githubUser, flatten: .flatMap(maxPublishers: 4))])),
        Preset(
            name: "concat", title: "concat",
            summary: "One lookup after the other, in order: type slowpoke and every answer arrives, late.",
            definition: PipelineDefinition(stages: [.lookup(.githubUser, flatten: .concat)])),
    ]
}
