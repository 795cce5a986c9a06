extension BrowserPage {
    /// The page's stylesheet: a centred card, light and dark schemes, a CSS-only spinner.
    static let style = """
        :root {
          --bg: #f4f5f7; --card: #ffffff; --text: #1f2328; --muted: #656d76; --border: #d0d7de;
          --accent: #0969da; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #8d96a0; --border: #30363d;
                  --accent: #4493f8; --ok: #3fb950; --warn: #d29922; --bad: #f85149; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; min-height: 100vh; display: flex; align-items: flex-start; justify-content: center;
               background: var(--bg); color: var(--text); padding: 48px 16px; }
        .card { width: 100%; max-width: 440px; background: var(--card); border: 1px solid var(--border);
                border-radius: 12px; padding: 24px; box-shadow: 0 1px 3px rgba(0, 0, 0, 0.06); }
        header { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; }
        h1 { font-size: 1.15rem; margin: 0 0 16px; }
        .connection { font-size: 0.75rem; margin: 0; padding: 2px 8px; border-radius: 999px;
                      border: 1px solid var(--border); color: var(--muted); white-space: nowrap; }
        .connection::before { content: "●"; margin-right: 4px; }
        .connection[data-state="open"]::before { color: var(--ok); }
        .connection[data-state="connecting"]::before { color: var(--warn); }
        .connection[data-state="closed"]::before { color: var(--bad); }
        label { display: block; font-size: 0.85rem; font-weight: 600; margin-bottom: 6px; }
        .input-row { position: relative; }
        input { width: 100%; font: inherit; font-size: 1rem; padding: 10px 40px 10px 12px; color: var(--text);
                background: var(--bg); border: 1px solid var(--border); border-radius: 8px; }
        input:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
        .spinner { position: absolute; right: 12px; top: 50%; width: 18px; height: 18px; margin-top: -9px;
                   border: 2px solid var(--border); border-top-color: var(--accent); border-radius: 50%;
                   animation: spin 0.8s linear infinite; }
        .spinner[hidden] { display: none; }
        @keyframes spin { to { transform: rotate(360deg); } }
        @media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 2.4s; } }
        .user { display: flex; gap: 20px; align-items: center; margin: 24px 0 8px; }
        .avatar { width: 88px; height: 88px; border-radius: 50%; flex: none; border: 1px solid var(--border); }
        img.avatar { object-fit: cover; color: transparent; overflow: hidden; }
        .avatar[hidden] { display: none; }
        .placeholder { background: linear-gradient(135deg, var(--bg), var(--border)); }
        .details { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 0; min-width: 0; }
        dt { color: var(--muted); font-size: 0.85rem; }
        dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
        dd a { color: var(--accent); text-decoration: none; }
        dd a:hover { text-decoration: underline; }
        .status { font-size: 0.85rem; color: var(--muted); margin: 12px 0 0; min-height: 1.2em; }
        .status[data-status="found"] { color: var(--ok); }
        .status[data-status="not_found"], .status[data-status="invalid"], .status[data-status="error"] { color: var(--bad); }
        .status[data-status="rate_limited"], .status[data-status="unavailable"] { color: var(--warn); }
        .pipeline { margin-top: 16px; padding-top: 12px; border-top: 1px solid var(--border); font-size: 0.75rem;
                    color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        .pages { margin-top: 16px; font-size: 0.8rem; color: var(--muted); }
        .pages a { color: var(--accent); }
        """
}
