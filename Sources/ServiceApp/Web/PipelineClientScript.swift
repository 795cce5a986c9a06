import HTTPServer

/// The pages' one client of `/ws/pipelines`, served as its own resource (`GET /pipelines.js`) and
/// loaded by `/`, `/search`, `/form` and `/playground` (`<script src="/pipelines.js?v=…">`).
///
/// It defines `pipelines.subscribe(name, handlers)`: the page's pipeline as a subscription on the
/// page's one socket. The client keeps a demand window: it subscribes with `demand: 16` and, as
/// the page draws events, tops the demand up with `request` once half of it is used, so at most
/// 16 events are ever outstanding. It reconnects with doubling back-off (0.5 s to 10 s, jittered)
/// and subscribes again on the new socket; a subscription that ends (`completion`) or is refused
/// (`error` before `subscribed`) is shown and started again with the same back-off — except a
/// refused definition (`bad_pipeline`), which would be refused again: that is handed to the page
/// (with its `stage`) and left. Only `textContent` is ever written from the network.
enum PipelineClientScript {
    /// The path the service serves the script at.
    static let path = "/pipelines.js"

    /// The `Content-Type` to serve it with.
    static let contentType = ServedScript.contentType

    /// The demand window: the first demand of a subscription and the most ever outstanding.
    static let demandWindow = 16

    /// The script as served (`/pipelines.js?v=…`, cached for good under that URL).
    static let served = ServedScript(path: path, source: script)

    /// A digest of the script's text, in the pages' `src` as `?v=…`.
    static var version: String { served.version }

    /// What the pages put in their `<script src>`.
    static var versionedPath: String { served.versionedPath }

    /// The element that loads it, before the pages' own script (`PageScript`).
    static var element: String { served.element }

    /// The answer to `GET /pipelines.js` with `query`.
    static func response(query: String?) -> HTTPResponse { served.response(query: query) }

    /// `Cache-Control` for a request of `query`.
    static func cacheControl(query: String?) -> String { served.cacheControl(query: query) }

    /// The script. `handlers` of `subscribe`: `trace` (ask for traces), `onEvent(event)` for each
    /// event of the pipeline and for the client's own `{type:"error"}` (a refused frame or a failed
    /// completion, with `message`) and `{type:"closed"}` (the subscription is gone until it is
    /// started again), `onTrace(frame)` for traces, `onStart(send)` each time it is (re)subscribed
    /// (the page re-sends its fields), and `connection`, an element that shows the state in its
    /// `data-state` (`connecting`, `open`, `closed`, `ended`) and its text. `subscribe`'s
    /// `pipeline` is a catalog name or a definition object; it returns `send(message)`, which
    /// reports whether the socket took the message, and whose `send.cancel()` ends the
    /// subscription for good (a `cancel` frame when it is live on the socket).
    static let script = #"""
        /* The service's browser client of /ws/pipelines (one socket per page, Combine's demand on the wire). */
        var pipelines = (function () {
          "use strict";
          var WINDOW = \#(demandWindow), FIRST_DELAY_MS = 500, MAX_DELAY_MS = 10000;
          var socket = null, timer = null, delay = FIRST_DELAY_MS, serial = 0, subscriptions = {}, all = [];

          function backoff(current) { return Math.round(current * (0.8 + Math.random() * 0.4)); }
          function seconds(ms) { return Math.max(1, Math.round(ms / 1000)); }
          function show(sub, state, text) {
            var element = sub.handlers.connection;
            if (element) { element.setAttribute("data-state", state); element.textContent = text; }
          }
          function announce(state, text) { all.forEach(function (sub) { show(sub, state, text); }); }

          function send(frame) {
            if (socket && socket.readyState === 1) { socket.send(JSON.stringify(frame)); return true; }
            return false;
          }

          // A fresh id each time, so nothing of an earlier instance is taken for the new one.
          function start(sub) {
            sub.timer = null;
            if (sub.id !== null) { delete subscriptions[sub.id]; }
            serial += 1;
            sub.id = "s" + serial;
            sub.live = false;
            sub.outstanding = WINDOW;
            subscriptions[sub.id] = sub;
            var frame = { type: "subscribe", id: sub.id, pipeline: sub.pipeline, demand: WINDOW };
            if (sub.handlers.trace) { frame.trace = true; }
            if (send(frame) && sub.handlers.onStart) { sub.handlers.onStart(sub.send); }
          }

          // The subscription is gone (ended or refused): say so, and start it again after a pause.
          function restart(sub, message) {
            delete subscriptions[sub.id];
            sub.live = false;
            sub.handlers.onEvent({ type: "closed" });
            sub.handlers.onEvent({ type: "error", message: message });
            var wait = backoff(sub.delay);
            sub.delay = Math.min(sub.delay * 2, MAX_DELAY_MS);
            show(sub, "ended", message + ", again in " + seconds(wait) + " s");
            sub.timer = setTimeout(function () {
              if (socket && socket.readyState === 1) {
                start(sub);
                show(sub, "open", "connected");
              } else {
                sub.timer = null;
              }
            }, wait);
          }

          // A definition the service refused would be refused again: the page shows why, and the
          // subscription stays ended (until the page makes a new one, or the socket reconnects).
          function refuse(sub, frame, text) {
            delete subscriptions[sub.id];
            sub.live = false;
            sub.handlers.onEvent({ type: "closed" });
            sub.handlers.onEvent({ type: "error", code: frame.code, stage: typeof frame.stage === "number" ? frame.stage : null, message: text });
          }

          // Ends `sub` for good: nothing more of it is started, sent or handed to the page.
          function cancel(sub) {
            if (sub.timer !== null) { clearTimeout(sub.timer); sub.timer = null; }
            var index = all.indexOf(sub);
            if (index >= 0) { all.splice(index, 1); }
            if (subscriptions[sub.id] === sub) {
              delete subscriptions[sub.id];
              send({ type: "cancel", id: sub.id });
            }
            sub.live = false;
          }

          // After the page has drawn an event: top the demand up once half the window is used.
          function topUp(sub) {
            if (sub.outstanding > WINDOW / 2 || subscriptions[sub.id] !== sub) { return; }
            if (send({ type: "request", id: sub.id, n: WINDOW - sub.outstanding })) { sub.outstanding = WINDOW; }
          }

          function receive(data) {
            var frame;
            try { frame = JSON.parse(data); } catch (error) { return; }
            if (!frame || typeof frame !== "object") { return; }
            var sub = typeof frame.id === "string" && Object.prototype.hasOwnProperty.call(subscriptions, frame.id) ? subscriptions[frame.id] : null;
            switch (frame.type) {
              case "subscribed":
                if (sub) { sub.live = true; sub.delay = FIRST_DELAY_MS; }
                break;
              case "event":
                if (!sub) { return; }
                sub.outstanding -= 1;
                try {
                  if (frame.event && typeof frame.event === "object") { sub.handlers.onEvent(frame.event); }
                } finally {
                  topUp(sub);
                }
                break;
              case "trace":
                if (sub && sub.handlers.onTrace) { sub.handlers.onTrace(frame); }
                break;
              case "completion":
                if (!sub) { return; }
                restart(sub, frame.failure ? "the pipeline failed: " + String(frame.failure.message || frame.failure.code) : "the pipeline finished");
                break;
              case "error":
                var text = "refused: " + String(frame.message || frame.code);
                if (sub && !sub.live) {
                  if (frame.code === "bad_pipeline") { refuse(sub, frame, text); } else { restart(sub, text); }
                  return;
                }
                // An error without an id concerns every subscription; one with an id that is no
                // longer live (a send that crossed a refusal), none.
                (sub ? [sub] : frame.id === null ? all : []).forEach(function (each) {
                  each.handlers.onEvent({ type: "error", code: frame.code, message: text });
                });
                break;
            }
          }

          function scheduleReconnect() {
            var wait = backoff(delay);
            delay = Math.min(delay * 2, MAX_DELAY_MS);
            announce("closed", "offline, retrying in " + seconds(wait) + " s");
            timer = setTimeout(connect, wait);
          }

          function connect() {
            timer = null;
            announce("connecting", "connecting…");
            var ws;
            try { ws = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws/pipelines"); }
            catch (error) { scheduleReconnect(); return; }
            socket = ws;
            ws.onopen = function () {
              if (socket !== ws) { return; }
              delay = FIRST_DELAY_MS;
              all.forEach(function (sub) { if (sub.timer !== null) { clearTimeout(sub.timer); } sub.delay = FIRST_DELAY_MS; start(sub); });
              announce("open", "connected");
            };
            ws.onmessage = function (message) { if (socket === ws && typeof message.data === "string") { receive(message.data); } };
            ws.onclose = function () {
              if (socket !== ws) { return; }
              socket = null;
              subscriptions = {};
              all.forEach(function (sub) { sub.live = false; sub.handlers.onEvent({ type: "closed" }); });
              scheduleReconnect();
            };
          }

          function subscribe(pipeline, handlers) {
            var sub = { pipeline: pipeline, handlers: handlers, id: null, live: false, outstanding: 0, delay: FIRST_DELAY_MS, timer: null };
            sub.send = function (message) {
              return subscriptions[sub.id] === sub && send({ type: "send", id: sub.id, message: message });
            };
            sub.send.cancel = function () { cancel(sub); };
            all.push(sub);
            if (socket === null && timer === null) { connect(); } else if (socket && socket.readyState === 1) { start(sub); }
            return sub.send;
          }

          window.addEventListener("online", function () {
            if (timer !== null) { clearTimeout(timer); delay = FIRST_DELAY_MS; connect(); }
          });
          return { subscribe: subscribe, window: WINDOW };
        })();

        """#
}
