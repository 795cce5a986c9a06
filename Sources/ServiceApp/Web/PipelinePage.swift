/// The browser pages of the search and form pipelines (`/search`, `/form`): the same head,
/// stylesheet and Content-Security-Policy as `BrowserPage`, links between the pages, and
/// the shared client of `/ws/pipelines` (`PipelineClientScript`) that each page's own script
/// drives. XHTML-compatible like `BrowserPage`, so tests can parse them with `XMLParser`.
enum PipelinePage {
    /// A whole page under `policy`: `title`, the card's `content` markup, the pipeline's `stages` (the lanes of
    /// its marble diagram, `MarbleDiagram`; the `masked` ones carry a password), and the page's
    /// `page`, the pipeline whose code in `/pages.js` (`PageScript`) the page runs: it subscribes
    /// with `pipelines.subscribe` (see `PipelineClientScript`).
    static func html(
        policy: PageSecurityPolicy, title: String, stages: [String], masked: [String] = [], content: String, page: String
    ) -> String {
        BrowserPage.head(policy: policy, title: title, extraStyle: extraStyle) + """
        \(PageScript.body(page: page))
        <main class="card" aria-labelledby="title">
          <header>
            <h1 id="title">\(title)</h1>
            <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">connecting…</p>
          </header>
        \(content)
        \(MarbleDiagram.markup(stages: stages, masked: masked))
        \(BrowserPage.navigation)
        </main>
        \(PipelineClientScript.element)
        \(PageScript.element)
        </body>
        </html>

        """
    }

    static let extraStyle = """
        ul.results { list-style: none; padding: 0; margin: 12px 0 0; }
        ul.results li { display: flex; align-items: center; gap: 8px; padding: 4px 0; }
        ul.results img, ul.results .thumb { width: 24px; height: 24px; border-radius: 50%; flex: none; }
        button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--border);
                 background: var(--accent); color: #fff; cursor: pointer; }
        button:disabled { background: var(--border); color: var(--muted); cursor: not-allowed; }
        .hint { font-size: 0.8rem; min-height: 1.2em; margin: 4px 0 8px; color: var(--bad); }
        .hint[data-valid="true"] { color: var(--ok); }
        """
}
