/// `GET /form`: the seed's sign-up form, the `form` pipeline (through `/ws/pipelines`). Stable ids for browser tests: `#value1`,
/// `#value2`, `#value2_repeat`, `#value1-hint`, `#value2-hint`, `#submit`, `#status`.
enum FormPage {
    /// The password's stages are drawn masked in the pipeline diagram, as the fields show them.
    static func html(policy: PageSecurityPolicy) -> String {
        PipelinePage.html(
        policy: policy, title: "Sign-up form", stages: PipelineDescriptor.form.stages, masked: ["value2", "value2_repeat", "validatedValue2"],
        content: content, page: PipelineDescriptor.form.name
        )
    }

    private static let content = """
          <div class="field">
            <label for="value1">Name (at least 3 characters)</label>
            <input id="value1" name="value1" type="text" autocomplete="off" />
            <p id="value1-hint" class="hint" aria-live="polite"></p>
          </div>
          <div class="field">
            <label for="value2">Password (at least 5 characters)</label>
            <input id="value2" name="value2" type="password" autocomplete="new-password" />
          </div>
          <div class="field">
            <label for="value2_repeat">Password again</label>
            <input id="value2_repeat" name="value2_repeat" type="password" autocomplete="new-password" />
            <p id="value2-hint" class="hint" aria-live="polite"></p>
          </div>
          <p><button id="submit" type="button" disabled="disabled">Submit</button></p>
          <p id="status" class="status" role="status" aria-live="polite"></p>
        """

    /// The page's code, served in `/pages.js` (`PageScript`).
    static let script = #"""
        (function () {
          "use strict";
          var $ = function (id) { return document.getElementById(id); };
          var names = ["value1", "value2", "value2_repeat"];
          function sendAll(send) { names.forEach(function (name) { send({ type: "field", name: name, value: $(name).value }); }); }
          function onEvent(event) {
            switch (event.type) {
              case "validation":
                var hint = $(event.field + "-hint");
                if (hint) { hint.textContent = event.message; hint.setAttribute("data-valid", event.valid ? "true" : "false"); }
                break;
              case "submit": $("submit").disabled = event.allowed !== true; break;
              case "submitted": $("status").textContent = "submitted: " + event.value1; break;
              case "error": $("status").textContent = "server: " + (event.message || event.code); break;
              case "closed": $("submit").disabled = true; break;
            }
          }
          var send = pipelines.subscribe("form", {
            onEvent: onEvent, onStart: sendAll, trace: marbles.on, onTrace: marbles.add, connection: $("connection")
          });
          names.forEach(function (name) {
            $(name).addEventListener("input", function () { send({ type: "field", name: name, value: $(name).value }); });
          });
          $("submit").addEventListener("click", function () { send({ type: "submit" }); });
        })();
        """#
}
