/// The pages' own code, served as `GET /pages.js` (`ServedScript`: versioned, cached for good)
/// instead of inline, so that the pages' Content-Security-Policy allows no inline script:
/// `images` (`imagesScript`), the marble diagram (`MarbleDiagram.script`), then each page's
/// script, run only on the page whose `<body data-page>` names its pipeline (the playground's:
/// `playground`). The pages load it after the shared client
/// (`PipelineClientScript`), whose `pipelines` it uses.
enum PageScript {
    /// The path the service serves it at.
    static let path = "/pages.js"

    /// Each page's code, by the pipeline its `<body data-page>` names.
    static let pages: [(pipeline: String, script: String)] = [
        (PipelineDescriptor.githubUser.name, BrowserPage.script),
        (PipelineDescriptor.search.name, SearchPage.script),
        (PipelineDescriptor.form.name, FormPage.script),
        (PlaygroundPage.name, PlaygroundPage.script),
    ]

    /// Defines `images`: `{ allows(url) }`, whether the page's policy lets an image load from
    /// `url` (an `http:`/`https:` URL of an origin the `<meta>` policy's `img-src` names, `'self'`
    /// being the page's own), so that the pages set `img.src` only to what will load: a URL
    /// from the network never reaches it otherwise (see `PageSecurityPolicy`).
    static let imagesScript = #"""
        var images = (function () {
          "use strict";
          var meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]'), origins = [];
          ((meta && meta.getAttribute("content")) || "").split(";").forEach(function (directive) {
            var words = directive.trim().split(/\s+/);
            if (words[0] === "img-src") {
              origins = words.slice(1).map(function (source) { return source === "'self'" ? location.origin : source; });
            }
          });
          function allows(url) {
            if (typeof url !== "string") { return false; }
            var parsed;
            try { parsed = new URL(url); } catch (error) { return false; }
            return (parsed.protocol === "https:" || parsed.protocol === "http:") && origins.indexOf(parsed.origin) >= 0;
          }
          return { allows: allows };
        })();
        """#

    /// The script as served.
    static let served = ServedScript(path: path, source: source)

    /// The element that loads it, after `PipelineClientScript.element`.
    static var element: String { served.element }

    /// The `<body>` start tag of the page of `pipeline`.
    static func body(page pipeline: String) -> String { #"<body data-page="\#(pipeline)">"# }

    private static var source: String {
        var text = "/* The service's pages: images, the marble diagram, then the code of the page <body data-page> names. */\n"
        text += imagesScript + "\n" + MarbleDiagram.script + "\n"
        for (pipeline, script) in pages {
            text += #"if (document.body.getAttribute("data-page") === "\#(pipeline)") {"# + "\n" + script + "\n}\n"
        }
        return text
    }
}
