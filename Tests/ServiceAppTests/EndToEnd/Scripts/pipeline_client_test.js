// The pages' client of /ws/pipelines (GET /pipelines.js) on a virtual clock, against a scripted
// fake WebSocket: the frames it sends, its demand window, reconnecting with doubling back-off and
// resubscribing, completions and refusals, traces, and frames it must ignore.
// Usage: node pipeline_client_test.js CLIENT_SCRIPT — prints "ok N checks", or every failed check
// and exits 1.
"use strict";
const source = require("fs").readFileSync(process.argv[2], "utf8");
const WINDOW = 16;
let checks = 0;
const failures = [];

function check(condition, what) {
  checks += 1;
  if (!condition) { failures.push(current + ": " + what); }
}
function equal(actual, expected, what) {
  check(JSON.stringify(actual) === JSON.stringify(expected), what + ": got " + JSON.stringify(actual) + ", expected " + JSON.stringify(expected));
}

/// A fresh client with its own fake clock, sockets and window.
function environment() {
  const env = { now: 0, timers: [], sockets: [], listeners: {}, serial: 0 };
  env.setTimeout = function (body, ms) { env.serial += 1; env.timers.push({ id: env.serial, at: env.now + ms, ms: ms, body: body }); return env.serial; };
  env.clearTimeout = function (id) { env.timers = env.timers.filter(function (timer) { return timer.id !== id; }); };
  env.advance = function (ms) {
    const end = env.now + ms;
    for (;;) {
      const due = env.timers.filter(function (timer) { return timer.at <= end; }).sort(function (a, b) { return a.at - b.at; })[0];
      if (!due) { break; }
      env.timers = env.timers.filter(function (timer) { return timer !== due; });
      env.now = due.at;
      due.body();
    }
    env.now = end;
  };
  env.delays = function () { return env.timers.map(function (timer) { return timer.ms; }); };
  class FakeSocket {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; env.sockets.push(this); }
    send(data) {
      if (this.readyState !== 1) { throw new Error("send on a socket that is not open"); }
      this.sent.push(JSON.parse(data));
    }
    open() { this.readyState = 1; this.onopen({}); }
    receive(frame) { this.onmessage({ data: typeof frame === "string" ? frame : JSON.stringify(frame) }); }
    drop() { this.readyState = 3; this.onclose({}); }
  }
  env.socket = function () { return env.sockets[env.sockets.length - 1]; };
  const window = { addEventListener: function (name, body) { env.listeners[name] = body; } };
  const location = { protocol: "http:", host: "127.0.0.1:8080" };
  const math = Object.create(Math);
  math.random = function () { return 0.5; }; // no jitter: the back-off is exact
  env.pipelines = new Function("window", "location", "WebSocket", "setTimeout", "clearTimeout", "Math", source + "\nreturn pipelines;")(
    window, location, FakeSocket, env.setTimeout, env.clearTimeout, math);
  return env;
}

/// A page's subscription: what it was given, and a connection line.
function page(env, pipeline, options) {
  const result = { events: [], traces: [], starts: 0, value: "", state: null, text: null };
  const connection = { setAttribute: function (name, value) { result.state = value; } };
  Object.defineProperty(connection, "textContent", { set: function (text) { result.text = text; } });
  result.send = env.pipelines.subscribe(pipeline, Object.assign({
    connection: connection,
    onEvent: function (event) { result.events.push(event); },
    onTrace: function (trace) { result.traces.push(trace); },
    onStart: function (send) { result.starts += 1; if (result.value) { send({ type: "input", value: result.value }); } }
  }, options || {}));
  return result;
}

function frames(socket, type) { return socket.sent.filter(function (frame) { return frame.type === type; }); }

const scenarios = {
  "subscribes on the one socket once it is open, and sends the page's frames": function () {
    const env = environment(), p = page(env, "github-user");
    equal(env.sockets.length, 1, "one socket");
    equal(env.socket().url, "ws://127.0.0.1:8080/ws/pipelines", "its URL");
    equal(p.state, "connecting", "connection line");
    equal(p.send({ type: "input", value: "he" }), false, "nothing taken before the socket is open");
    env.socket().open();
    equal(env.socket().sent, [{ type: "subscribe", id: "s1", pipeline: "github-user", demand: WINDOW }], "the subscribe");
    equal([p.state, p.text], ["open", "connected"], "connection line");
    equal(p.send({ type: "input", value: "hec" }), true, "taken");
    equal(env.socket().sent[1], { type: "send", id: "s1", message: { type: "input", value: "hec" } }, "a send frame");
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "github-user" });
    env.socket().receive({ type: "event", id: "s1", event: { type: "hello", minLength: 3 } });
    equal(p.events, [{ type: "hello", minLength: 3 }], "the event, unwrapped");
    equal(env.sockets.length, 1, "still one socket");
  },

  "keeps at most the window outstanding, topping it up as events are drawn": function () {
    const env = environment(), p = page(env, "form");
    env.socket().open();
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "form" });
    let delivered = 0, most = 0;
    const requested = function () {
      return env.socket().sent.reduce(function (sum, frame) {
        return sum + (frame.type === "subscribe" ? frame.demand : frame.type === "request" ? frame.n : 0);
      }, 0);
    };
    // The server's side: send whenever there is demand, 100 events in all.
    while (delivered < 100 && delivered < requested()) {
      delivered += 1;
      env.socket().receive({ type: "event", id: "s1", event: { type: "validation", n: delivered } });
      most = Math.max(most, requested() - delivered);
    }
    equal(delivered, 100, "every event got through on topped-up demand");
    equal(p.events.length, 100, "and was drawn");
    equal(p.events[99].n, 100, "in order");
    equal(most, WINDOW, "never more than the window outstanding");
    check(frames(env.socket(), "request").every(function (frame) { return frame.n === WINDOW / 2 && frame.id === "s1"; }), "requests of half a window");
    equal(frames(env.socket(), "request").length, Math.floor(100 / (WINDOW / 2)), "one request per half window drawn");
  },

  "reconnects with doubling back-off, resubscribes and re-sends the field": function () {
    const env = environment(), p = page(env, "github-user");
    env.socket().open();
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "github-user" });
    p.value = "heckj";
    p.send({ type: "input", value: p.value });
    env.socket().drop();
    equal(p.events, [{ type: "closed" }], "the page hears the subscription is gone");
    equal([p.state, p.text], ["closed", "offline, retrying in 1 s"], "connection line");
    const waits = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      waits.push(env.delays()[0]);
      const sockets = env.sockets.length;
      env.advance(env.delays()[0]);
      equal(env.sockets.length, sockets + 1, "a new socket after the wait");
      env.socket().drop();
    }
    equal(waits, [500, 1000, 2000, 4000, 8000, 10000, 10000], "doubling from 0.5 s to at most 10 s");
    env.advance(env.delays()[0]);
    equal(p.send({ type: "input", value: "x" }), false, "nothing taken while connecting");
    env.socket().open();
    equal(env.socket().sent, [
      { type: "subscribe", id: "s2", pipeline: "github-user", demand: WINDOW },
      { type: "send", id: "s2", message: { type: "input", value: "heckj" } }
    ], "subscribed again with a fresh id, the field re-sent");
    equal(p.starts, 2, "onStart on each subscription");
    env.socket().drop();
    equal(env.delays(), [500], "an open socket resets the back-off");
    check(env.sockets.every(function (socket) { return socket.url === "ws://127.0.0.1:8080/ws/pipelines"; }), "every socket to /ws/pipelines");
  },

  "reconnects at once when the browser is back online": function () {
    const env = environment();
    page(env, "form");
    env.socket().open();
    env.socket().drop();
    env.listeners.online();
    equal(env.sockets.length, 2, "a new socket at once");
    equal(env.delays(), [], "the wait cancelled");
  },

  "asks for traces with trace:true and hands them over outside demand": function () {
    const env = environment(), p = page(env, "github-search", { trace: true });
    env.socket().open();
    equal(env.socket().sent[0], { type: "subscribe", id: "s1", pipeline: "github-search", demand: WINDOW, trace: true }, "the subscribe");
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "github-search" });
    for (let index = 0; index < 40; index += 1) {
      env.socket().receive({ id: "s1", type: "trace", stage: "search", event: "value", t: index });
    }
    equal(p.traces.length, 40, "every trace to onTrace");
    equal(p.events, [], "none as events");
    equal(frames(env.socket(), "request"), [], "no demand spent on traces");
  },

  "shows a completion and subscribes again after the back-off": function () {
    const env = environment(), p = page(env, "form");
    env.socket().open();
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "form" });
    env.socket().receive({ type: "completion", id: "s1", failure: { code: "overflow", message: "more than 256 events waited for demand" } });
    equal(p.events, [{ type: "closed" }, { type: "error", message: "the pipeline failed: more than 256 events waited for demand" }], "shown");
    equal([p.state, p.text], ["ended", "the pipeline failed: more than 256 events waited for demand, again in 1 s"], "connection line");
    env.socket().receive({ type: "event", id: "s1", event: { type: "late" } });
    equal(p.events.length, 2, "nothing more taken for the ended id");
    equal(p.send({ type: "submit" }), false, "nothing sent for it either");
    env.advance(499);
    equal(frames(env.socket(), "subscribe").length, 1, "not before the back-off");
    env.advance(1);
    equal(frames(env.socket(), "subscribe")[1], { type: "subscribe", id: "s2", pipeline: "form", demand: WINDOW }, "subscribed again");
    equal(p.state, "open", "connection line");
    env.socket().receive({ type: "completion", id: "s2", finished: true });
    equal(env.delays(), [1000], "a second end waits twice as long");
    env.advance(1000);
    env.socket().receive({ type: "subscribed", id: "s3", pipeline: "form" });
    env.socket().receive({ type: "completion", id: "s3", finished: true });
    equal(env.delays(), [500], "a subscription that started resets it");
    equal(env.sockets.length, 1, "all on the one socket");
  },

  "a refused subscribe is shown and tried again; other refusals are shown": function () {
    const env = environment(), p = page(env, "github-user");
    env.socket().open();
    env.socket().receive({ type: "error", id: "s1", code: "too_many_sessions", message: "too many sessions for this client" });
    equal(p.events[1], { type: "error", message: "refused: too many sessions for this client" }, "shown");
    equal(p.state, "ended", "connection line");
    env.socket().receive({ type: "error", id: "s1", code: "unknown_id", message: "no live subscription has this id" });
    equal(p.events.length, 2, "an error about the refused id's later frames is not shown again");
    env.advance(500);
    equal(frames(env.socket(), "subscribe")[1].id, "s2", "subscribed again");
    env.socket().receive({ type: "subscribed", id: "s2", pipeline: "github-user" });
    p.events.length = 0;
    env.socket().receive({ type: "error", id: "s2", code: "bad_message", message: "bad" });
    env.socket().receive({ type: "error", id: null, code: "bad_message", message: "no id" });
    equal(p.events, [
      { type: "error", code: "bad_message", message: "refused: bad" },
      { type: "error", code: "bad_message", message: "refused: no id" }
    ], "shown");
    env.advance(60000);
    equal(frames(env.socket(), "subscribe").length, 2, "a live subscription is kept");
  },

  "a refused definition (bad_pipeline) is handed over with its stage, and not tried again": function () {
    const env = environment(), definition = { stages: [{ op: "debounce", ms: 100001 }] }, p = page(env, definition);
    env.socket().open();
    equal(env.socket().sent[0], { type: "subscribe", id: "s1", pipeline: definition, demand: WINDOW }, "the definition object as the pipeline");
    env.socket().receive({ type: "error", id: "s1", code: "bad_pipeline", stage: 0, message: "ms: at most 10000" });
    equal(p.events, [{ type: "closed" }, { type: "error", code: "bad_pipeline", stage: 0, message: "refused: ms: at most 10000" }], "shown");
    equal(p.state, "open", "the socket is fine");
    env.advance(60000);
    equal(frames(env.socket(), "subscribe").length, 1, "not subscribed again");
    const q = page(env, { stages: [] });
    env.socket().receive({ type: "error", id: "s2", code: "bad_pipeline", stage: null, message: "no stages" });
    equal(q.events[1], { type: "error", code: "bad_pipeline", stage: null, message: "refused: no stages" }, "a whole-definition refusal");
  },

  "cancel ends a subscription for good": function () {
    const env = environment(), p = page(env, "github-user"), other = page(env, "form");
    env.socket().open();
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "github-user" });
    p.send.cancel();
    equal(frames(env.socket(), "cancel"), [{ type: "cancel", id: "s1" }], "a cancel frame for the live id");
    equal(p.send({ type: "input", value: "x" }), false, "nothing sent for it any more");
    env.socket().receive({ type: "event", id: "s1", event: { type: "result" } });
    equal(p.events, [], "nothing handed over after the cancel");
    p.send.cancel();
    equal(frames(env.socket(), "cancel").length, 1, "a second cancel sends nothing");
    env.socket().drop();
    env.advance(env.delays()[0]);
    env.socket().open();
    equal(frames(env.socket(), "subscribe").map(function (frame) { return frame.pipeline; }), ["form"], "only the others are subscribed again");
    check(other.events.length === 1 && other.events[0].type === "closed", "the other was told of the drop");
    const ended = page(env, "form");
    env.socket().receive({ type: "completion", id: frames(env.socket(), "subscribe").pop().id, finished: true });
    ended.send.cancel();
    env.advance(60000);
    equal(frames(env.socket(), "subscribe").filter(function (frame) { return frame.id === "s5"; }), [], "a cancelled restart never runs");
  },

  "a page's handler that throws still tops the demand up": function () {
    const env = environment();
    env.pipelines.subscribe("form", { onEvent: function (event) { if (event.type === "boom") { throw new Error("boom"); } } });
    env.socket().open();
    for (let index = 0; index < WINDOW; index += 1) {
      try { env.socket().receive({ type: "event", id: "s1", event: { type: "boom" } }); } catch (error) { /* the page's */ }
    }
    equal(frames(env.socket(), "request").map(function (frame) { return frame.n; }), [WINDOW / 2, WINDOW / 2], "demand kept flowing");
  },

  "ignores what is not its own": function () {
    const env = environment(), p = page(env, "github-user");
    env.socket().open();
    env.socket().receive({ type: "subscribed", id: "s1", pipeline: "github-user" });
    ["not json", "[1,2]", "null", "42"].forEach(function (text) { env.socket().receive(text); });
    env.socket().onmessage({ data: new ArrayBuffer(4) });
    env.socket().receive({ type: "event", id: "other", event: { type: "result" } });
    env.socket().receive({ type: "event", id: "__proto__", event: { type: "result" } });
    env.socket().receive({ type: "completion", id: "other", finished: true });
    env.socket().receive({ type: "mystery", id: "s1" });
    for (let index = 0; index < 30; index += 1) { env.socket().receive({ type: "event", id: "other", event: {} }); }
    equal(p.events, [], "nothing reached the page");
    equal(frames(env.socket(), "request"), [], "no demand for ids that are not its own");
    equal(env.delays(), [], "nothing restarted");
  }
};

let current = "";
Object.keys(scenarios).forEach(function (name) {
  current = name;
  try { scenarios[name](); } catch (error) { failures.push(name + ": threw " + (error && error.stack || error)); }
});
if (failures.length > 0) {
  console.log(failures.join("\n"));
  process.exit(1);
}
console.log("ok " + checks + " checks in " + Object.keys(scenarios).length + " scenarios");
