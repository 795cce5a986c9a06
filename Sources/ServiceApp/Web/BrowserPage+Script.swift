extension BrowserPage {
    /// The page's script: the `github-user` subscription through the shared client (`pipelines`,
    /// see `PipelineClientScript`), and the rendering of `hello`, `activity`, `result` and `error`
    /// events. Only `textContent` is written (no HTML from the network), only `https:` URLs
    /// reach `a.href`, and only URLs the page's policy allows images from reach `img.src`
    /// (`images.allows`, `PageScript`).
    static let script = #"""
        (function () {
          "use strict";
          var $ = function (id) { return document.getElementById(id); };
          var field = $("username"), spinner = $("spinner"), avatar = $("avatar");
          var placeholder = $("avatar-placeholder"), nameEl = $("name"), loginEl = $("login");
          var repos = $("repos"), statusEl = $("status"), connection = $("connection"), pipeline = $("pipeline");

          var touched = false, minLength = 3;

          var STATUS_TEXT = {
            found: "found",
            not_found: "not found",
            too_short: "too short",
            invalid: "not a valid GitHub login",
            rate_limited: "rate limited by GitHub, try again later",
            unavailable: "GitHub is unavailable right now"
          };

          function isHTTPS(url) { return typeof url === "string" && /^https:\/\//.test(url); }

          function setActive(active) {
            spinner.hidden = !active;
            field.setAttribute("aria-busy", active ? "true" : "false");
          }

          function setStatus(code, text) {
            statusEl.setAttribute("data-status", code);
            statusEl.textContent = text;
          }

          function clearUser() {
            avatar.removeAttribute("src");
            avatar.alt = "";
            avatar.hidden = true;
            placeholder.hidden = false;
            nameEl.textContent = "–";
            loginEl.textContent = "–";
            repos.textContent = "unknown";
          }

          function showUser(user) {
            if (images.allows(user.avatar_url)) {
              avatar.src = user.avatar_url;
              avatar.alt = "Avatar of " + user.login;
              avatar.hidden = false;
              placeholder.hidden = true;
            } else {
              avatar.removeAttribute("src");
              avatar.hidden = true;
              placeholder.hidden = false;
            }
            nameEl.textContent = user.name ? String(user.name) : "–";
            loginEl.textContent = "";
            if (isHTTPS(user.html_url)) {
              var link = document.createElement("a");
              link.href = user.html_url;
              link.rel = "noopener noreferrer";
              link.target = "_blank";
              link.textContent = String(user.login);
              loginEl.appendChild(link);
            } else {
              loginEl.textContent = String(user.login);
            }
            repos.textContent = typeof user.public_repos === "number" ? String(user.public_repos) : "unknown";
          }

          function showResult(event) {
            var users = Array.isArray(event.users) ? event.users : [];
            if (users.length > 0 && users[0] && typeof users[0] === "object") { showUser(users[0]); } else { clearUser(); }
            var text = STATUS_TEXT[event.status] || String(event.status);
            if (event.status === "too_short") { text += " (at least " + minLength + " characters)"; }
            if (typeof event.query === "string" && event.query.length > 0) { text += ": " + event.query; }
            setStatus(String(event.status), text);
          }

          function handle(event) {
            switch (event.type) {
              case "hello":
                if (typeof event.minLength === "number") { minLength = event.minLength; }
                if (typeof event.throttleMs === "number") {
                  pipeline.textContent = "throttle(" + event.throttleMs + " ms) → removeDuplicates → lookup → switchToLatest";
                }
                break;
              case "activity": setActive(event.active === true); break;
              case "result": showResult(event); break;
              case "error": setStatus("error", "server: " + (event.message || event.code || "error")); break;
              case "closed": setActive(false); break;
            }
          }

          var send = pipelines.subscribe("github-user", {
            trace: marbles.on, onTrace: marbles.add, onEvent: handle, connection: connection,
            onStart: function (send) { if (touched) { send({ type: "input", value: field.value }); } }
          });

          avatar.addEventListener("error", function () {
            avatar.hidden = true;
            placeholder.hidden = false;
          });
          field.addEventListener("input", function () {
            touched = true;
            if (!send({ type: "input", value: field.value })) { setStatus("offline", "offline: the value is sent when the connection is back"); }
          });
          clearUser();
        })();
        """#
}
