import HTTPServer

/// The browser page served at `GET /`: the server-side twin of the book's GithubViewController.
///
/// A username field whose every change is sent to the `github-user` pipeline as
/// `{"type":"input","value":…}` (through `/ws/pipelines` and the shared `PipelineClientScript`),
/// an activity spinner driven by `activity` events, the user's avatar, name and login, and the
/// repository count (`unknown` when a result has no users). Self-contained: inline CSS and the
/// service's own scripts (`/pipelines.js`, `/pages.js`: no inline script), nothing else except
/// the avatar image from GitHub. The markup is
/// XHTML-compatible (void elements self-closed, style in a CDATA section) so tests
/// can parse it with `XMLParser`. Stable ids for browser tests: `#username`, `#spinner`,
/// `#avatar`, `#name`, `#login`, `#repos`, `#status`, `#connection`.
enum BrowserPage {
    /// A page as served: its `html` with the `Content-Security-Policy` header, revalidated on
    /// every load (`no-cache`) so a page always names the client script of the running service.
    static func response(_ html: String) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": contentType, "Content-Security-Policy": contentSecurityPolicy, "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        ], body: .bytes(Array(html.utf8)))
    }

    /// The `Content-Type` to serve the page with.
    static let contentType = "text/html; charset=utf-8"

    /// Where the pages' images may come from: the service itself (the `/favicon.ico` browsers ask
    /// it for; Firefox reports the request as a violation otherwise) and GitHub's avatars (users'
    /// `avatar_url`).
    static let imageSources = ["'self'", "https://avatars.githubusercontent.com"]

    /// The `Content-Security-Policy` of the pages, sent as a header and declared in a `<meta>`
    /// element: scripts only from the service itself (`/pipelines.js`, `/pages.js`; no inline
    /// code), inline styles, images only from the service and GitHub's avatar host, sockets (and any other
    /// connection) only to the service — `'self'` covers same-origin `ws:`/`wss:` in current
    /// browsers.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
        + "img-src \(imageSources.joined(separator: " ")); connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'"

    /// The whole page.
    static let html: String = head + body

    private static let head = """
        <!DOCTYPE html>
        <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
        <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)" />
        <meta name="color-scheme" content="light dark" />
        <title>GitHub user lookup</title>
        <style>/*<![CDATA[*/
        \(style)
        \(MarbleDiagram.style)
        /*]]>*/</style>
        </head>

        """

    private static let body = """
        \(PageScript.body(page: PipelineDescriptor.githubUser.name))
        <main class="card" aria-labelledby="title">
          <header>
            <h1 id="title">GitHub user lookup</h1>
            <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">connecting…</p>
          </header>
          <div class="field">
            <label for="username">GitHub username</label>
            <div class="input-row">
              <input id="username" name="username" type="text" maxlength="39" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false" placeholder="e.g. heckj" aria-describedby="status" autofocus="autofocus" />
              <span id="spinner" class="spinner" role="progressbar" aria-label="Looking up the user" hidden="hidden"></span>
            </div>
          </div>
          <section class="user" aria-label="GitHub user">
            <img id="avatar" class="avatar" alt="" width="88" height="88" hidden="hidden" />
            <div class="avatar placeholder" id="avatar-placeholder" aria-hidden="true"></div>
            <dl class="details">
              <dt>Name</dt><dd id="name">–</dd>
              <dt>Login</dt><dd id="login">–</dd>
              <dt>Repositories</dt><dd id="repos">unknown</dd>
            </dl>
          </section>
          <p id="status" class="status" role="status" aria-live="polite">type a username</p>
          <footer id="pipeline" class="pipeline">throttle → removeDuplicates → lookup → switchToLatest</footer>
        \(MarbleDiagram.markup(stages: PipelineDescriptor.githubUser.stages))
          <nav class="pages" aria-label="Pipelines"><a href="/">user lookup</a> · <a href="/search">search</a> · <a href="/form">sign-up form</a></nav>
        </main>
        \(PipelineClientScript.element)
        \(PageScript.element)
        </body>
        </html>

        """
}
