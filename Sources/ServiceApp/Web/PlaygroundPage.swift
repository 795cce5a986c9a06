/// `GET /playground`: compose a pipeline from the operator catalog (`GET /api/operators`) and run
/// it live as a composed subscription on `/ws/pipelines` (`"pipeline"` a definition object,
/// `"trace":true`), with one marble lane per stage (`MarbleDiagram`, live: lanes `input`, then
/// `"<index>:<op>"`). Stages are added, removed, reordered and their parameters set (inputs typed
/// and bounded by the catalog); the definition lives in the page's URL
/// (`/playground#d=<URL-encoded definition JSON>`), so a link shares it; the catalog's presets
/// are one click each. Same head, policy, client and conventions as the other pages.
///
/// Stable ids for browser tests: `#presets` (a button per preset, `data-preset` its name),
/// `#preset-summary`, `#limits`, `#stages` (an `li.stage` per stage, `data-index`, with its
/// `.stage-error`), `#add-op`, `#add-stage`, `#definition-error`, `#share`, `#input`,
/// `#spinner`, `#status`, `#normalised`, `#outputs` (newest first, `data-kind` `value`,
/// `result` or `search`), `#connection`, `#marbles`.
enum PlaygroundPage {
    /// What its `<body data-page>` says, so that `/pages.js` runs its code (`PageScript`).
    static let name = "playground"

    /// The page under `policy`.
    static func html(policy: PageSecurityPolicy) -> String {
        BrowserPage.head(policy: policy, title: "Pipeline playground", extraStyle: PipelinePage.extraStyle + style) + """
            \(PageScript.body(page: name))
            <main class="card playground" aria-labelledby="title">
              <header>
                <h1 id="title">Pipeline playground</h1>
                <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">connecting…</p>
              </header>
            \(content)
            \(MarbleDiagram.markup(stages: ["input"], live: true))
            \(BrowserPage.navigation)
            </main>
            \(PipelineClientScript.element)
            \(PageScript.element)
            </body>
            </html>

            """
    }

    // The page's text avoids words starting with "on" after a space: the pages' tests look for
    // inline event handlers that way.
    private static let content = """
          <section class="presets-section" aria-labelledby="presets-title">
            <h2 id="presets-title">Presets</h2>
            <p id="presets" class="presets"></p>
            <p id="preset-summary" class="summary" aria-live="polite"></p>
            <details class="comparisons">
              <summary>The book's comparisons</summary>
              <p><strong>throttle against debounce:</strong> load <em>throttle</em>, type a word at a steady pace and
                watch its lane, then load <em>debounce</em> and type it again: throttle lets a value through every
                window while you keep typing, debounce lets nothing through until you pause, and then the last value.</p>
              <p><strong>switchToLatest, flatMap, concat:</strong> the demo's <code>slowpoke</code> user is answered after
                3&#160;s. Type <code>slowpoke</code>, then add an <code>x</code> before its answer comes:
                switchToLatest cancels the slow lookup and shows the newer user alone; flatMap keeps the slow lookup
                running beside the newer (up to <code>maxPublishers</code> at a time) and shows each answer as it comes;
                concat starts the next lookup after the slow answer, so every answer comes, in order, but late.</p>
            </details>
          </section>
          <div class="playground-grid">
            <section class="definition" aria-labelledby="definition-title">
              <h2 id="definition-title">Stages</h2>
              <ol id="stages" class="stages" aria-live="polite"></ol>
              <p id="definition-error" class="stage-error" role="alert"></p>
              <p class="add-row">
                <label for="add-op">Add a stage</label>
                <select id="add-op"></select>
                <button id="add-stage" type="button">add</button>
              </p>
              <p id="limits" class="limits"></p>
              <p class="share"><a id="share" href="/playground">link to this definition</a></p>
              <p class="normalised-row">As the service runs it: <code id="normalised">–</code></p>
            </section>
            <section class="run" aria-labelledby="run-title">
              <h2 id="run-title">Run</h2>
              <div class="field">
                <label for="input">Input (each change is sent)</label>
                <div class="input-row">
                  <input id="input" name="input" type="text" maxlength="256" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" placeholder="e.g. heckj" autofocus="autofocus" />
                  <span id="spinner" class="spinner" role="progressbar" aria-label="Looking up" hidden="hidden"></span>
                </div>
              </div>
              <p id="status" class="status" role="status" aria-live="polite">loading the operator catalog…</p>
              <ol id="outputs" class="outputs" aria-label="Outputs, newest first"></ol>
            </section>
          </div>
        """

    private static let style = """
        .playground.card, .tracing .playground.card { max-width: 980px; }
        h2 { font-size: 0.95rem; margin: 16px 0 8px; }
        .playground-grid { display: grid; grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); gap: 24px; }
        @media (max-width: 720px) { .playground-grid { grid-template-columns: minmax(0, 1fr); } }
        .presets { display: flex; flex-wrap: wrap; gap: 6px; margin: 0; }
        .presets button[aria-pressed="true"] { outline: 2px solid var(--text); outline-offset: 1px; }
        .summary, .comparisons { font-size: 0.8rem; color: var(--muted); }
        .comparisons summary { cursor: pointer; }
        .stages { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
        .stage { border: 1px solid var(--border); border-radius: 8px; padding: 8px 10px; }
        .stage.refused { border-color: var(--bad); }
        .stage-head { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; }
        .stage-name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        .stage-kind { font-size: 0.75rem; color: var(--muted); }
        .stage-buttons { margin-left: auto; display: flex; gap: 4px; }
        .stage-buttons button { padding: 0 8px; background: none; color: var(--accent); }
        .params { display: flex; flex-wrap: wrap; gap: 6px 12px; margin-top: 6px; }
        .param { display: inline-flex; align-items: center; gap: 4px; font-size: 0.8rem; font-weight: normal; margin: 0; }
        .param input, .param select { width: auto; max-width: 12em; padding: 3px 6px; font-size: 0.85rem; }
        .param input[type="number"] { width: 7.5em; }
        .param input[type="text"] { max-width: 12em; }
        .param input:invalid { outline: 2px solid var(--bad); }
        .stage-error { color: var(--bad); font-size: 0.8rem; margin: 4px 0 0; min-height: 0; }
        .stage-error:empty { display: none; }
        .add-row { display: flex; gap: 8px; align-items: center; margin: 10px 0; }
        .add-row label { margin: 0; font-weight: normal; font-size: 0.85rem; }
        .add-row select { padding: 4px 6px; }
        .share, .normalised-row, .limits { font-size: 0.8rem; color: var(--muted); overflow-wrap: anywhere; }
        .share a { color: var(--accent); }
        .outputs { list-style: none; padding: 0; margin: 8px 0 0; display: grid; gap: 6px; font-size: 0.85rem; }
        .outputs li { display: flex; align-items: center; gap: 8px; padding: 4px 6px; border-radius: 6px; background: var(--bg);
                      overflow-wrap: anywhere; }
        .outputs img, .outputs .thumb { width: 32px; height: 32px; border-radius: 50%; flex: none; }
        .outputs .thumbs img, .outputs .thumbs .thumb { width: 20px; height: 20px; }
        .outputs code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        .outputs .muted { color: var(--muted); }
        """
}
