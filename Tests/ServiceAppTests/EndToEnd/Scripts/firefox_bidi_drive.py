#!/usr/bin/env python3
"""Drives one page in headless Firefox over WebDriver BiDi (firefox-esr speaks it natively; no
geckodriver): with --preload FILE, runs FILE in every new document before the page's own scripts
(script.addPreloadScript); sizes the page to --viewport; navigates to URL, waits for the page's
WebSocket to be open (#connection data-state=open), runs the JavaScript in DRIVE_FILE as the body
of a function given `$` (getElementById), `doc` and `finish(text)`, and prints what it finished
with; with a preload, a second line `sockets=` and JSON.stringify(window.__socketLog). With
--screenshot FILE, saves a PNG of the page there. Exit 1 on any protocol error."""
import base64
import json
import sys
import time

import websocket

from page_drive import arguments, expression, socket_log_expression, start_browser, stop_browser

args = arguments(__doc__)
width, height = args.size

browser, port, profile = start_browser(lambda port, profile: [
    args.browser, "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", str(port)], "firefox-bidi-")
try:
    deadline = time.time() + 30
    while True:
        try:
            ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=args.timeout + 25, suppress_origin=True)
            break
        except (ConnectionRefusedError, websocket.WebSocketException, OSError):
            if time.time() > deadline:
                sys.exit("Firefox's BiDi server never answered")
            time.sleep(0.2)
    next_id = [0]

    def call(method, params):
        next_id[0] += 1
        ws.send(json.dumps({"id": next_id[0], "method": method, "params": params}))
        while True:
            answer = json.loads(ws.recv())
            if answer.get("id") == next_id[0]:
                if answer.get("type") != "success":
                    sys.exit(f"{method}: {answer}")
                return answer["result"]

    call("session.new", {"capabilities": {}})
    context = call("browsingContext.getTree", {})["contexts"][0]["context"]
    call("browsingContext.setViewport", {"context": context, "viewport": {"width": width, "height": height}})
    if args.preload_source:
        call("script.addPreloadScript", {"functionDeclaration": "() => {\n" + args.preload_source + "\n}"})
    call("browsingContext.navigate", {"context": context, "url": args.url, "wait": "complete"})
    result = call("script.evaluate", {"expression": expression(args.drive, args.timeout), "target": {"context": context},
                                      "awaitPromise": True})
    if result.get("type") != "success":
        sys.exit(f"script: {result}")
    if args.screenshot:
        shot = call("browsingContext.captureScreenshot", {"context": context})
        with open(args.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    print(result["result"].get("value"))
    if args.preload_source:
        log = call("script.evaluate", {"expression": socket_log_expression(),
                                       "target": {"context": context}, "awaitPromise": False})
        print("sockets=" + log["result"].get("value"))
    try:
        call("session.end", {})
    except Exception:
        pass
finally:
    stop_browser(browser, profile)
