import HTTPServer

/// The browser page served at `GET /`: the server-side twin of the book's GithubViewController.
///
/// A username field whose every change is sent to the `github-user` pipeline as
/// `{"type":"input","value":…}` (through `/ws/pipelines` and the shared `PipelineClientScript`),
/// an activity spinner driven by `activity` events, the user's avatar, name and login, and the
/// repository count (`unknown` when a result has no users). Self-contained: inline CSS and the
/// service's own scripts (`/pipelines.js`, `/pages.js`: no inline script), nothing else except
/// the avatar image (from where `PageSecurityPolicy` allows). The markup is
/// XHTML-compatible (void elements self-closed, style in a CDATA section) so tests
/// can parse it with `XMLParser`. Stable ids for browser tests: `#username`, `#spinner`,
/// `#avatar`, `#name`, `#login`, `#repos`, `#status`, `#connection`.
enum BrowserPage {
    /// A page as served: its `html` with `policy` as its `Content-Security-Policy` header,
    /// revalidated on every load (`no-cache`) so a page always names the client script of the
    /// running service.
    static func response(_ html: String, policy: PageSecurityPolicy) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: [
            "Content-Type": contentType, "Content-Security-Policy": policy.text, "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        ], body: .bytes(Array(html.utf8)))
    }

    /// The `Content-Type` to serve the page with.
    static let contentType = "text/html; charset=utf-8"

    /// The whole page, declaring `policy` (`PageSecurityPolicy`) in its `<meta>`.
    static func html(policy: PageSecurityPolicy) -> String { head(policy: policy, title: "GitHub user lookup") + body }

    /// The `<head>` every page shares: `policy`, `title` and the stylesheets (`extraStyle`
    /// after the pages' common one, then the marble diagram's).
    static func head(policy: PageSecurityPolicy, title: String, extraStyle: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
        <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="Content-Security-Policy" content="\(policy.text)" />
        <meta name="color-scheme" content="light dark" />
        <title>\(title)</title>
        <style>/*<![CDATA[*/
        \(style)
        \(extraStyle)
        \(MarbleDiagram.style)
        /*]]>*/</style>
        </head>

        """
    }

    /// The links between the pages, at the foot of each.
    static let navigation = #"""
          <nav class="pages" aria-label="Pipelines"><a href="/">user lookup</a> · <a href="/search">search</a> · <a href="/form">sign-up form</a> · <a href="/playground">playground</a></nav>
        """#

    /// The paths `navigation` links to.
    static let pagePaths = ["/", "/search", "/form", "/playground"]

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
        \(navigation)
        </main>
        \(PipelineClientScript.element)
        \(PageScript.element)
        </body>
        </html>

        """
}
