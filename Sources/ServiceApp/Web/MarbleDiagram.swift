/// The "show pipeline" switch every pipeline page carries, and the live marble diagram it shows:
/// one lane per stage of the catalog, time flowing left to right over the last 10 s, a marble
/// per value (labelled), a bar per completion (red when it failed), a cross per cancel and a
/// tick per subscription. Hovering a mark shows its stage, event, value and time (SVG
/// `<title>`); tapping it writes them under the diagram. Plain SVG, no library; "download SVG"
/// saves what it shows as a standalone file (styles inlined, the page's colours resolved).
///
/// The switch reloads the page with `?trace=1`; the page then subscribes to its pipeline with
/// `"trace":true` (`marbles.on`) and hands every `trace` frame to `marbles.add`.
enum MarbleDiagram {
    /// The switch, the diagram for `stages`, and the tapped marble's line. The values of the
    /// `masked` stages (a password field's) are drawn as one dot per character, as the field shows them.
    /// A `live` diagram (the playground's) has no switch: it is always shown, its page always
    /// asks for traces, and the page names its lanes at run time (`marbles.lanes`).
    static func markup(stages: [String], masked: [String] = [], live: Bool = false) -> String {
        func json(_ names: [String]) -> String { "[" + names.map { "&quot;\($0)&quot;" }.joined(separator: ",") + "]" }
        let toggle = live ? "" : #"<label class="switch"><input type="checkbox" id="show-pipeline" /> show pipeline</label>"#
        return """
          <section class="marble-section" aria-label="Pipeline diagram">
            \(toggle)
            <div id="marble-view"\(live ? "" : #" hidden="hidden""#)>
              <svg id="marbles" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Live marble diagram of this session's pipeline" data-stages="\(json(stages))" data-masked="\(json(masked))"\(live ? #" data-live="true""# : "")></svg>
              <p id="marble-detail" class="marble-detail" aria-live="polite"></p>
              <p class="marble-actions"><button type="button" id="marble-export">download SVG</button></p>
            </div>
          </section>
        """
    }

    static let style = """
        .tracing .card { max-width: 720px; }
        .marble-section { margin-top: 12px; font-size: 0.85rem; }
        .marble-section .switch { display: inline-flex; gap: 6px; align-items: center; cursor: pointer; font-weight: normal; }
        .marble-section .switch input { width: auto; margin: 0; }
        #marbles { display: block; width: 100%; height: auto; margin-top: 6px; border: 1px solid var(--border); border-radius: 6px;
                   touch-action: manipulation; }
        #marbles .axis { stroke: var(--border); stroke-width: 1; }
        #marbles .label { fill: var(--muted); font-size: 11px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        #marbles .tick { stroke: var(--border); stroke-width: 1; }
        #marbles .tick-label { fill: var(--muted); font-size: 10px; text-anchor: middle; }
        #marbles .marble circle { fill: var(--accent); stroke: var(--card); stroke-width: 1.5; }
        #marbles .marble text { fill: currentColor; font-size: 10px; text-anchor: middle; }
        #marbles .completion { stroke: var(--ok); stroke-width: 2.5; }
        #marbles .completion.failed { stroke: var(--bad); }
        #marbles .cancel { fill: var(--bad); font-size: 17px; text-anchor: middle; font-weight: bold;
                           stroke: var(--card); stroke-width: 3px; paint-order: stroke; }
        #marbles .subscription { stroke: var(--muted); stroke-width: 1.5; }
        #marbles .hit { fill: transparent; }
        #marbles .event { cursor: pointer; }
        @media (max-width: 480px) { body.tracing { padding: 24px 8px; } .tracing .card { padding: 16px; } }
        .marble-actions { margin: 4px 0 0; }
        .marble-actions button { width: auto; margin: 0; padding: 0; border: 0; background: none; color: var(--accent);
                                 font: inherit; text-decoration: underline; cursor: pointer; }
        .marble-detail { min-height: 1.2em; margin: 4px 0 0; color: var(--muted); font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
        """

    /// Defines `marbles`: `{ add(event), on, snapshot(), lanes(names) }` (`on`: the switch is on,
    /// or the diagram is live, and the page asks for traces; `lanes` replaces the lanes, for a
    /// new subscription, and starts the drawing over).
    ///
    /// With the switch on, the page's card widens (`tracing`) to give the diagram room. The
    /// drawing is redone every 100 ms from the events of the last `WINDOW_MS`. The SVG's user
    /// units are CSS pixels (the view box follows the element's width), so text keeps its size
    /// on a phone; below `COMPACT_WIDTH` each stage's name goes above its lane, giving the time
    /// axis the full width. Time is the server's `t`, anchored to the page's clock by the newest
    /// event; a `t` that goes down means a new session (the page reconnected): the diagram starts
    /// over. Labels that would overlap a newer one in the same lane are left out (the marble's
    /// title and a tap still give them).
    static let script = #"""
        var marbles = (function () {
          "use strict";
          var svg = document.getElementById("marbles");
          if (!svg) { return { add: function () {}, on: false, snapshot: function () { return ""; }, lanes: function () {} }; }
          var on = svg.getAttribute("data-live") === "true" || /(^|[?&])trace=1(&|$)/.test(location.search.slice(1));
          var toggle = document.getElementById("show-pipeline"), detail = document.getElementById("marble-detail");
          if (toggle) {
            toggle.checked = on;
            toggle.addEventListener("change", function () { location.search = toggle.checked ? "?trace=1" : ""; });
          }
          document.getElementById("marble-view").hidden = !on;
          if (on) { document.body.classList.add("tracing"); }
          var NS = "http://www.w3.org/2000/svg", WINDOW_MS = 10000, MAX_EVENTS = 3000, COMPACT_WIDTH = 480;
          var PAINT_ORDER = ["subscription", "value", "completion", "cancel"];
          var stages = JSON.parse(svg.getAttribute("data-stages") || "[]"), masked = JSON.parse(svg.getAttribute("data-masked") || "[]");
          var events = [], offset = null, lastT = 0, timer = null;
          var lanes = el("g", { "class": "lanes" }), layer = el("g", { "class": "events" }), layout = null;
          svg.appendChild(lanes);
          svg.appendChild(layer);
          function el(name, attributes) {
            var node = document.createElementNS(NS, name);
            Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
            return node;
          }
          function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
          function laneY(index) { return layout.top + index * layout.lane; }
          function xAt(age) { return layout.right - age / WINDOW_MS * (layout.right - layout.left); }
          function drawLanes() {
            var width = Math.round(svg.getBoundingClientRect().width) || 400, compact = width < COMPACT_WIDTH;
            var longest = stages.reduce(function (most, stage) { return Math.max(most, stage.length); }, 0);
            layout = { width: width, compact: compact, left: compact ? 8 : Math.min(200, Math.max(120, 16 + longest * 7)), right: width - 12,
                       top: compact ? 28 : 22, lane: compact ? 48 : 36 };
            var bottom = laneY(stages.length - 1) + (compact ? 26 : 20);
            svg.setAttribute("viewBox", "0 0 " + width + " " + (bottom + 16));
            clear(lanes);
            stages.forEach(function (stage, index) {
              var lane = el("g", { "class": "lane", "data-stage": stage }), y = laneY(index);
              lane.appendChild(el("line", { "class": "axis", x1: layout.left, x2: layout.right, y1: y, y2: y }));
              var label = el("text", { "class": "label", x: compact ? layout.left : 8, y: compact ? y - 12 : y + 4 });
              label.textContent = stage;
              lane.appendChild(label);
              lanes.appendChild(lane);
            });
            [0, 5000, 10000].forEach(function (age) {
              var x = xAt(age);
              lanes.appendChild(el("line", { "class": "tick", x1: x, x2: x, y1: bottom - 4, y2: bottom + 2 }));
              var text = el("text", { "class": "tick-label", x: Math.min(Math.max(x, 20), layout.right - 8), y: bottom + 13 });
              text.textContent = age === 0 ? "now" : "−" + age / 1000 + " s";
              lanes.appendChild(text);
            });
          }
          function describe(value, stage) {
            if (value === undefined) { return ""; }
            if (value === null) { return "nil"; }
            if (value === "") { return '""'; }
            if (typeof value === "string" && masked.indexOf(stage) >= 0) { return new Array(Array.from(value).length + 1).join("•"); }
            if (typeof value === "object") {
              if (value.query !== undefined) { return describe(value.query, stage) + (value.status ? " · " + value.status : ""); }
              return JSON.stringify(value);
            }
            return String(value);
          }
          function node(event, x, y, showLabel) {
            var shape, group = el("g", { "class": event.event === "value" ? "event marble" : "event", "data-stage": event.stage, "data-event": event.event });
            if (event.event === "value") {
              group.appendChild(el("circle", { cx: x, cy: y, r: layout.compact ? 6 : 7 }));
              if (showLabel) {
                var label = el("text", { x: x, y: layout.compact ? y + 18 : y - 11 });
                label.textContent = showLabel;
                group.appendChild(label);
              }
            } else if (event.event === "completion") {
              shape = el("line", { "class": "completion" + (event.failure ? " failed" : ""), x1: x, x2: x, y1: y - 10, y2: y + 10 });
            } else if (event.event === "cancel") {
              shape = el("text", { "class": "cancel", x: x, y: y + 6 });
              shape.textContent = "×";
            } else {
              shape = el("line", { "class": "subscription", x1: x, x2: x, y1: y - 5, y2: y + 5 });
            }
            if (shape) { group.appendChild(shape); }
            group.appendChild(el("rect", { "class": "hit", x: x - 8, y: y - 10, width: 16, height: 20 }));
            var text = event.stage + " " + event.event + (event.value !== undefined ? " " + describe(event.value, event.stage) : "")
              + (event.failure ? " (" + event.failure + ")" : "") + " at " + event.t.toFixed(1) + " ms";
            var title = el("title", {});
            title.textContent = text;
            group.appendChild(title);
            group.addEventListener("click", function () { detail.textContent = text; });
            return group;
          }
          function draw() {
            var now = performance.now() - offset, labelLeft = stages.map(function () { return Infinity; }), nodes = [];
            events = events.filter(function (event) { return now - event.t <= WINDOW_MS; });
            clear(layer);
            for (var i = events.length - 1; i >= 0; i -= 1) {
              var event = events[i], index = stages.indexOf(event.stage);
              if (index < 0) { continue; }
              var x = xAt(Math.max(0, now - event.t)), label = null;
              if (event.event === "value") {
                var full = describe(event.value, event.stage), text = full.length > 14 ? full.slice(0, 13) + "…" : full;
                var half = text.length * 3.2 + 2;
                if (x + half <= labelLeft[index]) { label = text; labelLeft[index] = x - half; }
              }
              nodes.push({ order: PAINT_ORDER.indexOf(event.event), node: node(event, x, laneY(index), label) });
            }
            // Oldest first, so a newer marble covers an older one; completions over the marble
            // they follow, cancels over the marble of the request that replaced theirs.
            nodes.reverse();
            [0, 1, 2, 3].forEach(function (order) {
              nodes.forEach(function (entry) { if (entry.order === order) { layer.appendChild(entry.node); } });
            });
            if (events.length === 0 && timer !== null) { clearInterval(timer); timer = null; }
          }
          function setLanes(names) {
            stages = names.slice();
            events = [];
            offset = null;
            lastT = 0;
            clear(layer);
            drawLanes();
          }
          function add(event) {
            if (!on || typeof event.t !== "number") { return; }
            if (event.t < lastT) { events = []; offset = null; }
            lastT = event.t;
            if (offset === null || performance.now() - offset < event.t) { offset = performance.now() - event.t; }
            events.push(event);
            if (events.length > MAX_EVENTS) { events.splice(0, events.length - MAX_EVENTS); }
            if (timer === null) { timer = setInterval(draw, 100); }
          }
          /// The diagram as it is now, as a standalone SVG document: the page's `#marbles` rules
          /// inlined with its colours resolved, on the card's background, at its drawn size.
          function snapshot() {
            var copy = svg.cloneNode(true), page = getComputedStyle(document.documentElement), box = svg.viewBox.baseVal, rules = [];
            Array.prototype.forEach.call(document.styleSheets, function (sheet) {
              Array.prototype.forEach.call(sheet.cssRules, function (rule) {
                if (rule.selectorText && rule.selectorText.indexOf("#marbles ") === 0) { rules.push(rule.cssText); }
              });
            });
            var style = el("style", {});
            style.textContent = rules.join("\n").replace(/var\((--[a-z-]+)\)/g, function (_, name) { return page.getPropertyValue(name).trim(); });
            ["data-stages", "data-masked", "data-live", "role", "aria-label"].forEach(function (name) { copy.removeAttribute(name); });
            copy.setAttribute("width", box.width);
            copy.setAttribute("height", box.height);
            copy.setAttribute("color", getComputedStyle(svg).color);
            copy.setAttribute("font-family", getComputedStyle(svg).fontFamily);
            copy.insertBefore(el("rect", { width: "100%", height: "100%", fill: page.getPropertyValue("--card").trim() }), copy.firstChild);
            copy.insertBefore(style, copy.firstChild);
            return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
          }
          var exporter = document.getElementById("marble-export");
          exporter.addEventListener("click", function () {
            var url = URL.createObjectURL(new Blob([snapshot()], { type: "image/svg+xml" }));
            var link = document.createElement("a");
            link.href = url;
            link.download = "pipeline-" + new Date().toISOString().replace(/[:.]/g, "-") + ".svg";
            document.body.appendChild(link);
            link.click();
            link.remove();
            setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
          });
          drawLanes();
          window.addEventListener("resize", function () {
            var width = Math.round(svg.getBoundingClientRect().width);
            if (on && width && width !== layout.width) { drawLanes(); draw(); }
          });
          return { add: add, on: on, snapshot: snapshot, lanes: setLanes };
        })();
        """#
}
