/// `GET /search`: the seed's search bar with pull-to-refresh, the `github-search` pipeline
/// (through `/ws/pipelines`). Stable ids for
/// browser tests: `#query`, `#refresh`, `#spinner`, `#refreshing`, `#total`, `#results`, `#status`.
enum SearchPage {
    static func html(policy: PageSecurityPolicy) -> String {
        PipelinePage.html(
        policy: policy, title: "GitHub user search", stages: PipelineDescriptor.search.stages, content: content, page: PipelineDescriptor.search.name
        )
    }

    private static let content = """
          <div class="field">
            <label for="query">Search GitHub users</label>
            <div class="input-row">
              <input id="query" name="query" type="search" maxlength="256" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="e.g. heck" autofocus="autofocus" />
              <span id="spinner" class="spinner" role="progressbar" aria-label="Searching" hidden="hidden"></span>
            </div>
          </div>
          <p><button id="refresh" type="button">Refresh</button> <span id="refreshing" role="status" aria-live="polite" hidden="hidden">refreshing…</span></p>
          <p id="status" class="status" role="status" aria-live="polite">type to search</p>
          <p>Users found: <span id="total">0</span></p>
          <ul id="results" class="results" aria-label="Users found"></ul>
        """

    /// The page's code, served in `/pages.js` (`PageScript`).
    static let script = #"""
        (function () {
          "use strict";
          var $ = function (id) { return document.getElementById(id); };
          var query = $("query"), results = $("results"), statusEl = $("status"), total = $("total");
          var STATUS_TEXT = { ok: "", empty: "type to search", invalid: "GitHub cannot search for that",
            rate_limited: "GitHub's search limit is reached, try again later", unavailable: "GitHub is unavailable right now" };
          function placeholder() {
            var span = document.createElement("span");
            span.className = "thumb placeholder";
            span.setAttribute("aria-hidden", "true");
            return span;
          }
          function show(event) {
            statusEl.setAttribute("data-status", event.status);
            statusEl.textContent = event.status === "ok" ? (event.items.length ? "" : "no users found") : (STATUS_TEXT[event.status] || event.status);
            total.textContent = String(event.total_count || 0);
            while (results.firstChild) { results.removeChild(results.firstChild); }
            (event.items || []).forEach(function (item) {
              var li = document.createElement("li");
              // An avatar that cannot load (offline, say) degrades as on "/": a placeholder.
              if (images.allows(item.avatar_url)) {
                var img = document.createElement("img");
                img.addEventListener("error", function () { img.replaceWith(placeholder()); });
                img.src = item.avatar_url; img.alt = ""; li.appendChild(img);
              } else {
                li.appendChild(placeholder());
              }
              var link = document.createElement("a");
              link.textContent = item.login;
              if (/^https:\/\//.test(item.html_url || "")) { link.href = item.html_url; }
              li.appendChild(link);
              results.appendChild(li);
            });
          }
          function onEvent(event) {
            switch (event.type) {
              case "activity": $("spinner").hidden = event.active !== true; break;
              case "refreshing": $("refreshing").hidden = event.active !== true; break;
              case "search": show(event); break;
              case "error": statusEl.setAttribute("data-status", "error"); statusEl.textContent = "server: " + (event.message || event.code); break;
              case "closed": $("spinner").hidden = true; $("refreshing").hidden = true; break;
            }
          }
          var send = pipelines.subscribe("github-search", {
            onEvent: onEvent, onStart: function (send) { send({ type: "input", value: query.value }); },
            trace: marbles.on, onTrace: marbles.add, connection: $("connection")
          });
          query.addEventListener("input", function () { send({ type: "input", value: query.value }); });
          $("refresh").addEventListener("click", function () { send({ type: "refresh" }); });
        })();
        """#
}
