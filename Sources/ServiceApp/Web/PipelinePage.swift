/// The browser pages of the search and form pipelines (`/search`, `/form`): the same head,
/// stylesheet and Content-Security-Policy as `BrowserPage`, links between the three pages, and
/// one reconnecting WebSocket script (`PipelinePage.socketScript`) that each page's own script
/// drives. XHTML-compatible like `BrowserPage`, so tests can parse them with `XMLParser`.
enum PipelinePage {
    /// A whole page: `title`, the card's `content` markup, the pipeline's `stages` (the lanes of
    /// its marble diagram, `MarbleDiagram`; the `masked` ones carry a password), and the page's
    /// `script`, which calls `pipelineSocket(path, onEvent, onOpen)` (see `socketScript`).
    static func html(title: String, stages: [String], masked: [String] = [], content: String, script: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
        <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="Content-Security-Policy" content="\(BrowserPage.contentSecurityPolicy)" />
        <meta name="color-scheme" content="light dark" />
        <title>\(title)</title>
        <style>/*<![CDATA[*/
        \(BrowserPage.style)
        \(extraStyle)
        \(MarbleDiagram.style)
        /*]]>*/</style>
        </head>
        <body>
        <main class="card" aria-labelledby="title">
          <header>
            <h1 id="title">\(title)</h1>
            <p id="connection" class="connection" role="status" aria-live="polite" data-state="connecting">connecting…</p>
          </header>
        \(content)
        \(MarbleDiagram.markup(stages: stages, masked: masked))
          <nav class="pages" aria-label="Pipelines"><a href="/">user lookup</a> · <a href="/search">search</a> · <a href="/form">sign-up form</a></nav>
        </main>
        <script>//<![CDATA[
        \(MarbleDiagram.script)
        \(socketScript)
        \(script)
        //]]></script>
        </body>
        </html>

        """
    }

    private static let extraStyle = """
        ul.results { list-style: none; padding: 0; margin: 12px 0 0; }
        ul.results li { display: flex; align-items: center; gap: 8px; padding: 4px 0; }
        ul.results img { width: 24px; height: 24px; border-radius: 50%; }
        button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--border);
                 background: var(--accent); color: #fff; cursor: pointer; }
        button:disabled { background: var(--border); color: var(--muted); cursor: not-allowed; }
        .hint { font-size: 0.8rem; min-height: 1.2em; margin: 4px 0 8px; color: var(--bad); }
        .hint[data-valid="true"] { color: var(--ok); }
        """

    /// `pipelineSocket(path, onEvent, onOpen)`: connects to `path` on this host, calls
    /// `onEvent(event)` for each JSON event and `onOpen(send)` on each (re)connection, reconnects
    /// with doubling back-off (0.5 s to 10 s), and returns `send(object)`, which reports whether
    /// the socket took it. Only `textContent` is ever written from the network.
    static let socketScript = #"""
        function pipelineSocket(path, onEvent, onOpen) {
          "use strict";
          var connection = document.getElementById("connection");
          var FIRST_DELAY_MS = 500, MAX_DELAY_MS = 10000, delay = FIRST_DELAY_MS, socket = null, timer = null;
          function setConnection(state, text) { connection.setAttribute("data-state", state); connection.textContent = text; }
          function send(object) {
            if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(object)); return true; }
            return false;
          }
          function scheduleReconnect() {
            var wait = Math.round(delay * (0.8 + Math.random() * 0.4));
            delay = Math.min(delay * 2, MAX_DELAY_MS);
            setConnection("closed", "offline, retrying in " + Math.max(1, Math.round(wait / 1000)) + " s");
            timer = setTimeout(connect, wait);
          }
          function connect() {
            timer = null;
            setConnection("connecting", "connecting…");
            var ws;
            try { ws = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + path + marbles.suffix); }
            catch (error) { scheduleReconnect(); return; }
            socket = ws;
            ws.onopen = function () { delay = FIRST_DELAY_MS; setConnection("open", "connected"); onOpen(send); };
            ws.onmessage = function (message) {
              if (typeof message.data !== "string") { return; }
              var event;
              try { event = JSON.parse(message.data); } catch (error) { return; }
              if (event && event.type === "trace") { marbles.add(event); return; }
              onEvent(event);
            };
            ws.onclose = function () { if (socket !== ws) { return; } socket = null; onEvent({ type: "closed" }); scheduleReconnect(); };
          }
          window.addEventListener("online", function () {
            if (timer !== null) { clearTimeout(timer); delay = FIRST_DELAY_MS; connect(); }
          });
          connect();
          return send;
        }
        """#
}
