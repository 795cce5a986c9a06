/// The "show pipeline" switch every pipeline page carries, and the live marble diagram it shows:
/// one lane per stage of the catalog, time flowing left to right over the last 10 s, a marble
/// per value (labelled), a bar per completion (red when it failed), a cross per cancel and a
/// tick per subscription. Hovering a marble shows its value and time (SVG `<title>`); tapping
/// it writes them under the diagram. Plain SVG, no library.
///
/// The switch reloads the page with `?trace=1`; the page's socket then opens with it too
/// (`marbles.suffix`) and hands every `trace` event to `marbles.add`.
enum MarbleDiagram {
    /// The switch, the diagram for `stages`, and the tapped marble's line.
    static func markup(stages: [String]) -> String {
        let json = "[" + stages.map { "&quot;\($0)&quot;" }.joined(separator: ",") + "]"
        return """
          <section class="marble-section" aria-label="Pipeline diagram">
            <label class="switch"><input type="checkbox" id="show-pipeline" /> show pipeline</label>
            <div id="marble-view" hidden="hidden">
              <svg id="marbles" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Live marble diagram of this session's pipeline" data-stages="\(json)"></svg>
              <p id="marble-detail" class="marble-detail" aria-live="polite"></p>
            </div>
          </section>
        """
    }

    static let style = """
        .marble-section { margin-top: 12px; font-size: 0.85rem; }
        .marble-section .switch { display: inline-flex; gap: 6px; align-items: center; cursor: pointer; font-weight: normal; }
        .marble-section .switch input { width: auto; margin: 0; }
        #marbles { width: 100%; height: auto; margin-top: 6px; border: 1px solid var(--border); border-radius: 6px; }
        #marbles .axis { stroke: var(--border); stroke-width: 1; }
        #marbles .label { fill: var(--muted); font-size: 10px; font-family: ui-monospace, monospace; }
        #marbles .marble circle { fill: var(--accent); stroke: #fff; stroke-width: 1; }
        #marbles .marble text { fill: currentColor; font-size: 9px; text-anchor: middle; }
        #marbles .completion { stroke: var(--ok); stroke-width: 2; }
        #marbles .completion.failed { stroke: var(--bad); }
        #marbles .cancel { fill: var(--bad); font-size: 13px; text-anchor: middle; font-weight: bold; }
        #marbles .subscription { stroke: var(--muted); stroke-width: 1; }
        #marbles .marble, #marbles .cancel, #marbles .completion { cursor: pointer; }
        .marble-detail { min-height: 1.2em; margin: 4px 0 0; color: var(--muted); font-family: ui-monospace, monospace; }
        """

    /// Defines `marbles`: `{ add(event), suffix }` (`suffix` is `"?trace=1"` when the switch is on).
    static let script = #"""
        var marbles = (function () {
          "use strict";
          var svg = document.getElementById("marbles");
          var on = /(^|[?&])trace=1(&|$)/.test(location.search.slice(1));
          if (!svg) { return { add: function () {}, suffix: "" }; }
          var toggle = document.getElementById("show-pipeline"), detail = document.getElementById("marble-detail");
          toggle.checked = on;
          toggle.addEventListener("change", function () { location.search = toggle.checked ? "?trace=1" : ""; });
          document.getElementById("marble-view").hidden = !on;
          var NS = "http://www.w3.org/2000/svg", WINDOW_MS = 10000, LANE = 34, LABEL = 96, WIDTH = 400, MAX_EVENTS = 3000;
          var stages = JSON.parse(svg.getAttribute("data-stages") || "[]"), events = [], offset = null, timer = null;
          function el(name, attributes) {
            var node = document.createElementNS(NS, name);
            Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
            return node;
          }
          function laneY(index) { return 16 + index * LANE; }
          svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + (stages.length * LANE + 8));
          stages.forEach(function (stage, index) {
            var lane = el("g", { "class": "lane", "data-stage": stage });
            lane.appendChild(el("line", { "class": "axis", x1: LABEL, x2: WIDTH - 4, y1: laneY(index), y2: laneY(index) }));
            var label = el("text", { "class": "label", x: 4, y: laneY(index) + 4 });
            label.textContent = stage;
            lane.appendChild(label);
            svg.appendChild(lane);
          });
          var layer = el("g", { "class": "events" });
          svg.appendChild(layer);
          function describe(value) {
            if (value === undefined) { return ""; }
            if (value === null) { return "nil"; }
            if (typeof value === "object") {
              if (value.query !== undefined) { return value.query + (value.status ? " · " + value.status : ""); }
              return JSON.stringify(value);
            }
            return String(value);
          }
          function draw() {
            var now = performance.now() - offset;
            events = events.filter(function (event) { return now - event.t <= WINDOW_MS; });
            while (layer.firstChild) { layer.removeChild(layer.firstChild); }
            events.forEach(function (event) {
              var index = stages.indexOf(event.stage);
              if (index < 0) { return; }
              var x = (WIDTH - 12) - (now - event.t) / WINDOW_MS * (WIDTH - 12 - LABEL), y = laneY(index), node;
              var text = event.stage + " " + event.event + (event.value !== undefined ? " " + describe(event.value) : "")
                + (event.failure ? " (" + event.failure + ")" : "") + " at " + event.t.toFixed(1) + " ms";
              if (event.event === "value") {
                node = el("g", { "class": "marble" });
                node.appendChild(el("circle", { cx: x, cy: y, r: 7 }));
                var label = el("text", { x: x, y: y - 10 });
                label.textContent = describe(event.value).slice(0, 14);
                node.appendChild(label);
              } else if (event.event === "completion") {
                node = el("line", { "class": "completion" + (event.failure ? " failed" : ""), x1: x, x2: x, y1: y - 9, y2: y + 9 });
              } else if (event.event === "cancel") {
                node = el("text", { "class": "cancel", x: x, y: y + 5 });
                node.textContent = "×";
              } else {
                node = el("line", { "class": "subscription", x1: x, x2: x, y1: y - 4, y2: y + 4 });
              }
              var title = el("title", {});
              title.textContent = text;
              node.appendChild(title);
              node.addEventListener("click", function () { detail.textContent = text; });
              layer.appendChild(node);
            });
            if (events.length === 0 && timer !== null) { clearInterval(timer); timer = null; }
          }
          function add(event) {
            if (!on || typeof event.t !== "number") { return; }
            if (offset === null || performance.now() - offset < event.t) { offset = performance.now() - event.t; }
            events.push(event);
            if (events.length > MAX_EVENTS) { events.splice(0, events.length - MAX_EVENTS); }
            if (timer === null) { timer = setInterval(draw, 100); }
          }
          return { add: add, suffix: on ? "?trace=1" : "" };
        })();
        """#
}
