// Loaded into a page before its own scripts (Firefox: BiDi script.addPreloadScript; Chromium:
// CDP Page.addScriptToEvaluateOnNewDocument): records every WebSocket the page constructs, and on
// those sockets the demand of /ws/pipelines as it goes over the wire — the subscribe and request
// frames sent, the event frames received — so a test sees which sockets a page opened and how much
// demand it ever had outstanding, whatever the page's own script says; and every violation of the
// page's Content-Security-Policy. window.__socketLog.
(function () {
  "use strict";
  var Native = window.WebSocket;
  var log = { urls: [], subscribes: 0, requests: 0, events: 0, types: {}, maxOutstanding: 0, unbounded: false, violations: [] };
  // Whatever the page's Content-Security-Policy blocks (an inline script, a socket elsewhere…).
  document.addEventListener("securitypolicyviolation", function (event) {
    log.violations.push(event.effectiveDirective + " " + event.blockedURI);
  }, true);
  var requested = {}, received = {};
  function parse(data) {
    if (typeof data !== "string") { return null; }
    try { var frame = JSON.parse(data); return frame && typeof frame === "object" ? frame : null; } catch (error) { return null; }
  }
  function outstanding(id) {
    var now = requested[id] - received[id];
    if (now > log.maxOutstanding) { log.maxOutstanding = now; }
  }
  function sent(data) {
    var frame = parse(data);
    if (!frame) { return; }
    if (frame.type === "subscribe") {
      log.subscribes += 1;
      if (typeof frame.demand !== "number") { log.unbounded = true; }
      requested[frame.id] = typeof frame.demand === "number" ? frame.demand : 0;
      received[frame.id] = 0;
      outstanding(frame.id);
    } else if (frame.type === "request") {
      log.requests += 1;
      if (typeof frame.n !== "number") { log.unbounded = true; }
      requested[frame.id] = (requested[frame.id] || 0) + (typeof frame.n === "number" ? frame.n : 0);
      outstanding(frame.id);
    }
  }
  function arrived(data) {
    var frame = parse(data);
    if (!frame || frame.type !== "event") { return; }
    log.events += 1;
    received[frame.id] = (received[frame.id] || 0) + 1;
    var type = frame.event && frame.event.type;
    log.types[type] = (log.types[type] || 0) + 1;
  }
  function Recording(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    log.urls.push(String(url));
    socket.addEventListener("message", function (message) { arrived(message.data); });
    socket.send = function (data) { sent(data); return Native.prototype.send.call(socket, data); };
    return socket;
  }
  Recording.prototype = Native.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { Recording[name] = Native[name]; });
  window.WebSocket = Recording;
  Object.defineProperty(window, "__socketLog", { value: log });
})();
