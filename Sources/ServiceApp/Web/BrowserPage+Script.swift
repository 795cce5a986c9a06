extension BrowserPage {
    /// The page's script: the WebSocket session with reconnect and backoff, and the rendering of
    /// `hello`, `activity`, `result` and `error` events. Only `textContent` is written (no HTML
    /// from the network), and only `https:` URLs reach `img.src` and `a.href`.
    static let script = #"""
        (function () {
          "use strict";
          var $ = function (id) { return document.getElementById(id); };
          var field = $("username"), spinner = $("spinner"), avatar = $("avatar");
          var placeholder = $("avatar-placeholder"), nameEl = $("name"), loginEl = $("login");
          var repos = $("repos"), statusEl = $("status"), connection = $("connection"), pipeline = $("pipeline");

          var FIRST_DELAY_MS = 500, MAX_DELAY_MS = 10000;
          var socket = null, delay = FIRST_DELAY_MS, timer = null, touched = false, minLength = 3;

          var STATUS_TEXT = {
            found: "found",
            not_found: "not found",
            too_short: "too short",
            invalid: "not a valid GitHub login",
            rate_limited: "rate limited by GitHub, try again later",
            unavailable: "GitHub is unavailable right now"
          };

          function socketURL() {
            return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws" + marbles.suffix;
          }

          function isHTTPS(url) { return typeof url === "string" && /^https:\/\//.test(url); }

          function setConnection(state, text) {
            connection.setAttribute("data-state", state);
            connection.textContent = text;
          }

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
            if (isHTTPS(user.avatar_url)) {
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

          function handle(data) {
            var event;
            try { event = JSON.parse(data); } catch (error) { return; }
            if (!event || typeof event !== "object") { return; }
            switch (event.type) {
              case "hello":
                if (typeof event.minLength === "number") { minLength = event.minLength; }
                if (typeof event.throttleMs === "number") {
                  pipeline.textContent = "throttle(" + event.throttleMs + " ms) → removeDuplicates → lookup → switchToLatest";
                }
                break;
              case "trace": marbles.add(event); break;
              case "activity": setActive(event.active === true); break;
              case "result": showResult(event); break;
              case "error": setStatus("error", "server: " + (event.message || event.code || "error")); break;
            }
          }

          function sendValue() {
            if (socket && socket.readyState === WebSocket.OPEN) {
              socket.send(JSON.stringify({ type: "input", value: field.value }));
              return true;
            }
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
            try { ws = new WebSocket(socketURL()); } catch (error) { scheduleReconnect(); return; }
            socket = ws;
            ws.onopen = function () {
              delay = FIRST_DELAY_MS;
              setConnection("open", "connected");
              if (touched) { sendValue(); }
            };
            ws.onmessage = function (message) { if (typeof message.data === "string") { handle(message.data); } };
            ws.onclose = function () {
              if (socket !== ws) { return; }
              socket = null;
              setActive(false);
              scheduleReconnect();
            };
          }

          avatar.addEventListener("error", function () {
            avatar.hidden = true;
            placeholder.hidden = false;
          });
          field.addEventListener("input", function () {
            touched = true;
            if (!sendValue()) { setStatus("offline", "offline: the value is sent when the connection is back"); }
          });
          window.addEventListener("online", function () {
            if (timer !== null) { clearTimeout(timer); delay = FIRST_DELAY_MS; connect(); }
          });
          clearUser();
          connect();
        })();
        """#
}
