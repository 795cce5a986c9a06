/// The pages' own code, served as `GET /pages.js` (`ServedScript`: versioned, cached for good)
/// instead of inline, so that the pages' Content-Security-Policy allows no inline script: the
/// marble diagram (`MarbleDiagram.script`), then each page's script, run only on the page whose
/// `<body data-page>` names its pipeline. The pages load it after the shared client
/// (`PipelineClientScript`), whose `pipelines` it uses.
enum PageScript {
    /// The path the service serves it at.
    static let path = "/pages.js"

    /// Each page's code, by the pipeline its `<body data-page>` names.
    static let pages: [(pipeline: String, script: String)] = [
        (PipelineDescriptor.githubUser.name, BrowserPage.script),
        (PipelineDescriptor.search.name, SearchPage.script),
        (PipelineDescriptor.form.name, FormPage.script),
    ]

    /// The script as served.
    static let served = ServedScript(path: path, source: source)

    /// The element that loads it, after `PipelineClientScript.element`.
    static var element: String { served.element }

    /// The `<body>` start tag of the page of `pipeline`.
    static func body(page pipeline: String) -> String { #"<body data-page="\#(pipeline)">"# }

    private static var source: String {
        var text = "/* The service's pages: the marble diagram, then the code of the page <body data-page> names. */\n"
        text += MarbleDiagram.script + "\n"
        for (pipeline, script) in pages {
            text += #"if (document.body.getAttribute("data-page") === "\#(pipeline)") {"# + "\n" + script + "\n}\n"
        }
        return text
    }
}
