extension PlaygroundPage {
    /// The page's code, served in `/pages.js` (`PageScript`): reads the catalog
    /// (`GET /api/operators`), builds the stage editor and the preset buttons, keeps the
    /// definition in the URL (`#d=`), and runs it: a composed subscription through the shared
    /// client (`pipelines.subscribe(definition, …)` with `trace`), made anew (the old one
    /// cancelled) 300 ms after the definition last changed, and only when it did change. The
    /// input's value is sent on every change, as `{"type":"input","value":…}`; outputs are
    /// listed newest first; a `bad_pipeline` refusal is shown next to the stage it names. Only
    /// `textContent` is written from the network; images only from where the policy allows
    /// (`images.allows`), links only to `https:`.
    static let script = #"""
        (function () {
          "use strict";
          var $ = function (id) { return document.getElementById(id); };
          var field = $("input"), list = $("stages"), addOp = $("add-op"), statusEl = $("status"), outputs = $("outputs");
          var MAX_OUTPUTS = 12, RUN_DELAY_MS = 300, MAX_LOADED_STAGES = 32;
          var operators = {}, limits = {}, presets = [], stages = [], current = null, runningJSON = null, timer = null, touched = false;

          function make(tag, text, className) {
            var node = document.createElement(tag);
            if (text !== undefined && text !== null) { node.textContent = String(text); }
            if (className) { node.className = className; }
            return node;
          }
          function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }
          function setStatus(code, text) { statusEl.setAttribute("data-status", code); statusEl.textContent = text; }
          function copy(value) { return JSON.parse(JSON.stringify(value)); }

          // The definition, as JSON text and in the URL.
          function definitionJSON() { return JSON.stringify({ stages: stages }); }
          function shareURL(json) { return location.pathname + "#d=" + encodeURIComponent(json); }
          function fromHash() {
            var match = /^#d=(.*)$/.exec(location.hash), value;
            if (!match) { return null; }
            try { value = JSON.parse(decodeURIComponent(match[1])); } catch (error) { return null; }
            if (!value || typeof value !== "object" || !Array.isArray(value.stages)) { return null; }
            return value.stages.slice(0, MAX_LOADED_STAGES).filter(function (stage) {
              return stage && typeof stage === "object" && !Array.isArray(stage) && typeof stage.op === "string";
            });
          }

          // A new stage of `op`: its required parameters (or, when none is, its first) set to
          // their default, else their minimum, else their first value.
          function newStage(op) {
            var stage = { op: op }, parameters = (operators[op] && operators[op].parameters) || [];
            var wanted = parameters.filter(function (parameter) { return parameter.required; });
            if (wanted.length === 0 && parameters.length > 0 && parameters.every(function (p) { return p.default === undefined; })) {
              wanted = [parameters[0]];
            }
            wanted.forEach(function (parameter) {
              var value = parameter.default !== undefined ? parameter.default
                : typeof parameter.minimum === "number" ? parameter.minimum
                : Array.isArray(parameter.values) && parameter.values.length ? parameter.values[0] : "";
              stage[parameter.name] = value;
            });
            return stage;
          }

          // A parameter's value from its control: undefined (left out: the default) when empty,
          // except a required text, which may be empty (prepend's "").
          function read(parameter, control) {
            var text = control.value;
            if (text === "") { return parameter.required && (parameter.type === "string" || parameter.type === "value") ? "" : undefined; }
            switch (parameter.type) {
              case "integer": case "number": return Number(text);
              case "boolean": return text === "true";
              case "string": case "enum": return text;
              default:
                // A value of the flowing kind (prepend's): a number or boolean when it reads as one.
                if (/^(true|false)$/.test(text)) { return text === "true"; }
                if (/^-?[0-9]+(\.[0-9]+)?$/.test(text)) { return Number(text); }
                return text;
            }
          }

          function control(stage, index, parameter) {
            var id = "stage-" + index + "-" + parameter.name, value = stage[parameter.name], input;
            var label = make("label", null, "param");
            label.setAttribute("for", id);
            label.appendChild(make("span", parameter.name));
            var unset = parameter.default !== undefined ? "default " + JSON.stringify(parameter.default) : "unset";
            if (parameter.type === "boolean" || parameter.type === "enum") {
              input = document.createElement("select");
              var choices = parameter.type === "boolean" ? [true, false] : (parameter.values || []);
              if (!parameter.required) { input.appendChild(make("option", "(" + unset + ")")).value = ""; }
              choices.forEach(function (choice) { input.appendChild(make("option", String(choice))).value = String(choice); });
            } else {
              input = document.createElement("input");
              if (parameter.type === "integer" || parameter.type === "number") {
                input.type = "number";
                if (parameter.type === "integer") { input.step = "1"; }
                if (typeof parameter.minimum === "number") { input.min = String(parameter.minimum); }
                if (typeof parameter.maximum === "number") { input.max = String(parameter.maximum); }
                input.required = parameter.required === true;
              } else {
                input.type = "text";
                if (typeof limits.maxStringLength === "number") { input.maxLength = limits.maxStringLength; }
              }
              input.placeholder = parameter.required ? "" : unset;
            }
            input.id = id;
            input.value = value === undefined ? "" : String(value);
            if (parameter.summary) { input.title = String(parameter.summary); }
            input.addEventListener(input.tagName === "SELECT" ? "change" : "input", function () {
              var error = list.children[index] && list.children[index].querySelector(".stage-error");
              if (!input.checkValidity()) {
                if (error) { error.textContent = parameter.name + ": " + input.validationMessage; }
                return;
              }
              if (error) { error.textContent = ""; }
              var next = read(parameter, input);
              if (next === undefined) { delete stage[parameter.name]; } else { stage[parameter.name] = next; }
              changed(false);
            });
            label.appendChild(input);
            return label;
          }

          function button(text, label, disabled, action) {
            var node = make("button", text);
            node.type = "button";
            node.setAttribute("aria-label", label);
            node.disabled = disabled;
            node.addEventListener("click", action);
            return node;
          }

          function move(index, by) {
            var stage = stages.splice(index, 1)[0];
            stages.splice(index + by, 0, stage);
            changed(true);
          }

          function render() {
            clear(list);
            stages.forEach(function (stage, index) {
              var item = make("li", null, "stage"), head = make("div", null, "stage-head"), description = operators[stage.op];
              item.setAttribute("data-index", String(index));
              head.appendChild(make("span", index + ":" + stage.op, "stage-name"));
              if (description) {
                head.appendChild(make("span", [].concat(description.accepts || []).join(" | ") + " → " + description.produces, "stage-kind"));
                head.title = (description.combine ? description.combine + ": " : "") + (description.summary || "");
              }
              var buttons = make("span", null, "stage-buttons");
              buttons.appendChild(button("↑", "move stage " + index + " up", index === 0, function () { move(index, -1); }));
              buttons.appendChild(button("↓", "move stage " + index + " down", index === stages.length - 1, function () { move(index, 1); }));
              buttons.appendChild(button("×", "remove stage " + index, false, function () { stages.splice(index, 1); changed(true); }));
              head.appendChild(buttons);
              item.appendChild(head);
              var params = make("div", null, "params");
              ((description && description.parameters) || []).forEach(function (parameter) { params.appendChild(control(stage, index, parameter)); });
              item.appendChild(params);
              item.appendChild(make("p", description ? "" : "not an operator of the catalog", "stage-error"));
              list.appendChild(item);
            });
            var full = typeof limits.maxStages === "number" && stages.length >= limits.maxStages;
            $("add-stage").disabled = full;
            addOp.title = full ? "at most " + limits.maxStages + " stages" : "";
          }

          // The definition changed (`structure`: stages added, removed or moved): the URL now,
          // the run shortly.
          function changed(structure) {
            if (structure) { render(); }
            var json = definitionJSON();
            history.replaceState(null, "", shareURL(json));
            $("share").href = shareURL(json);
            var summary = "";
            presets.forEach(function (preset, index) {
              var same = JSON.stringify({ stages: preset.definition.stages }) === json;
              $("presets").children[index].setAttribute("aria-pressed", same ? "true" : "false");
              if (same) { summary = (preset.title ? preset.title + ": " : "") + (preset.summary || ""); }
            });
            $("preset-summary").textContent = summary;
            if (timer !== null) { clearTimeout(timer); }
            timer = setTimeout(run, RUN_DELAY_MS);
          }

          function clearErrors() {
            $("definition-error").textContent = "";
            Array.prototype.forEach.call(list.children, function (item) {
              item.classList.remove("refused");
              item.querySelector(".stage-error").textContent = operators[stages[Number(item.getAttribute("data-index"))].op] ? "" : "not an operator of the catalog";
            });
          }

          function run() {
            timer = null;
            var json = definitionJSON();
            if (json === runningJSON) { return; }
            runningJSON = json;
            if (current !== null) { current.cancel(); current = null; }
            clearErrors();
            clear(outputs);
            $("spinner").hidden = true;
            $("normalised").textContent = "–";
            marbles.lanes(["input"].concat(stages.map(function (stage, index) { return index + ":" + stage.op; })));
            if (stages.length === 0) { setStatus("empty", "add a stage to run the pipeline"); return; }
            setStatus("running", touched ? "running" : "running: type into the input");
            current = pipelines.subscribe(JSON.parse(json), {
              trace: true, onTrace: marbles.add, onEvent: handle, connection: $("connection"),
              onStart: function (send) { if (touched) { send({ type: "input", value: field.value }); } }
            });
          }

          function load(loaded) {
            stages = copy(loaded);
            changed(true);
            if (timer !== null) { clearTimeout(timer); }
            run();
          }

          // Outputs.
          function add(item, kind) {
            item.setAttribute("data-kind", kind);
            outputs.insertBefore(item, outputs.firstChild);
            while (outputs.children.length > MAX_OUTPUTS) { outputs.removeChild(outputs.lastChild); }
          }
          function placeholder() {
            var span = make("span", null, "thumb placeholder");
            span.setAttribute("aria-hidden", "true");
            return span;
          }
          function avatar(url, login) {
            if (!images.allows(url)) { return placeholder(); }
            var img = document.createElement("img");
            img.addEventListener("error", function () { img.replaceWith(placeholder()); });
            img.alt = "Avatar of " + login;
            img.src = url;
            return img;
          }
          function link(text, url) {
            var node = make("a", text);
            if (typeof url === "string" && /^https:\/\//.test(url)) { node.href = url; node.rel = "noopener noreferrer"; node.target = "_blank"; }
            return node;
          }
          function showResult(event) {
            var item = make("li"), users = Array.isArray(event.users) ? event.users : [], user = users[0];
            if (user && typeof user === "object") {
              item.appendChild(avatar(user.avatar_url, String(user.login)));
              item.appendChild(link(String(user.login), user.html_url));
              item.appendChild(make("span", (user.name ? String(user.name) + " · " : "")
                + (typeof user.public_repos === "number" ? user.public_repos + " repos" : "repos unknown")));
            } else {
              item.appendChild(placeholder());
            }
            item.appendChild(make("span", String(event.status) + (typeof event.query === "string" ? ": " + event.query : ""), "muted"));
            add(item, "result");
          }
          function showSearch(event) {
            var item = make("li"), thumbs = make("span", null, "thumbs"), items = Array.isArray(event.items) ? event.items : [];
            items.slice(0, 5).forEach(function (found) {
              if (found && typeof found === "object") { thumbs.appendChild(avatar(found.avatar_url, String(found.login))); }
            });
            item.appendChild(thumbs);
            item.appendChild(make("span", items.slice(0, 5).map(function (found) { return found && found.login; }).join(", ")));
            item.appendChild(make("span", String(event.status) + " · " + (event.total_count || 0) + " found", "muted"));
            add(item, "search");
          }
          function showError(event) {
            var item = typeof event.stage === "number" ? list.children[event.stage] : null;
            if (item) {
              item.classList.add("refused");
              item.querySelector(".stage-error").textContent = String(event.message);
              setStatus("refused", "refused at stage " + event.stage);
            } else if (event.code === "bad_pipeline") {
              $("definition-error").textContent = String(event.message);
              setStatus("refused", "refused");
            } else {
              setStatus("error", String(event.message || event.code));
            }
          }
          function handle(event) {
            switch (event.type) {
              case "hello":
                if (Array.isArray(event.stages)) { $("normalised").textContent = JSON.stringify({ stages: event.stages }); }
                break;
              case "value": add(make("li", JSON.stringify(event.value)), "value"); break;
              case "activity": $("spinner").hidden = event.active !== true; break;
              case "result": showResult(event); break;
              case "search": showSearch(event); break;
              case "error": showError(event); break;
              case "closed": $("spinner").hidden = true; break;
            }
          }

          function setUp(catalog) {
            limits = catalog.limits || {};
            (catalog.operators || []).forEach(function (description) {
              operators[description.op] = description;
              var option = make("option", description.op);
              option.value = description.op;
              if (description.summary) { option.title = String(description.summary); }
              addOp.appendChild(option);
            });
            presets = (Array.isArray(catalog.presets) ? catalog.presets : []).filter(function (preset) {
              return preset && preset.definition && Array.isArray(preset.definition.stages);
            });
            presets.forEach(function (preset) {
              var node = button(preset.name, "preset " + preset.name + ": " + (preset.title || ""), false, function () {
                load(preset.definition.stages);
              });
              node.setAttribute("data-preset", preset.name);
              node.title = preset.summary || "";
              $("presets").appendChild(node);
            });
            var bounds = [["maxStages", "stages"], ["maxLookups", "lookups"], ["maxMs", "ms"], ["maxCount", "for counts"],
              ["maxStringLength", "characters in a string"]].filter(function (pair) { return typeof limits[pair[0]] === "number"; });
            $("limits").textContent = bounds.length ? "At most: " + bounds.map(function (pair) { return limits[pair[0]] + " " + pair[1]; }).join(", ") + "." : "";
            $("add-stage").addEventListener("click", function () {
              if (operators[addOp.value]) { stages.push(newStage(addOp.value)); changed(true); }
            });
            var shared = fromHash(), first = presets.filter(function (preset) { return preset.name === "github-user"; })[0] || presets[0];
            load(shared || (first ? first.definition.stages : []));
            window.addEventListener("hashchange", function () {
              var linked = fromHash();
              if (linked && JSON.stringify({ stages: linked }) !== definitionJSON()) { load(linked); }
            });
          }

          field.addEventListener("input", function () {
            touched = true;
            if (current === null) { return; }
            if (!current({ type: "input", value: field.value })) { setStatus("offline", "not sent: the pipeline is not running"); }
            else if (statusEl.getAttribute("data-status") === "running") { setStatus("running", "running"); }
          });
          fetch("/api/operators", { headers: { Accept: "application/json" } }).then(function (response) {
            if (!response.ok) { throw new Error("HTTP " + response.status); }
            return response.json();
          }).then(setUp, function (error) {
            setStatus("error", "the operator catalog could not be loaded: " + error.message);
          });
        })();
        """#
}
