#!/usr/bin/env python3
"""Drives one page in headless Chromium over the DevTools protocol (CDP), as
firefox_bidi_drive.py does in Firefox: with --preload FILE, runs FILE in every new document
before the page's own scripts; sizes the page to --viewport; navigates to URL, waits for the
page's connection to be open (#connection data-state=open), runs the JavaScript in DRIVE_FILE as
the body of a function given `$` (getElementById), `doc` and `finish(text)`, and prints what it
finished with; with a preload, a second line `sockets=` and JSON.stringify(window.__socketLog).
With --screenshot FILE, saves a PNG of the page there. Exit 1 on any protocol error."""
import base64
import json
import sys
import time
import urllib.request

import websocket

from page_drive import arguments, expression, socket_log_expression, start_browser, stop_browser

args = arguments(__doc__)
width, height = args.size

browser, port, profile = start_browser(lambda port, profile: [
    args.browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
    "--hide-scrollbars", f"--user-data-dir={profile}", f"--remote-debugging-port={port}", f"--window-size={width},{height}",
    "about:blank"], "chromium-cdp-")
try:
    deadline = time.time() + 30
    target = None
    while target is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
                pages = [entry for entry in json.load(answer) if entry.get("type") == "page"]
            if pages:
                target = pages[0]["webSocketDebuggerUrl"]
        except OSError:
            pass
        if target is None:
            if time.time() > deadline:
                sys.exit("Chromium's DevTools server never answered")
            time.sleep(0.2)
    ws = websocket.create_connection(target, timeout=args.timeout + 25, suppress_origin=True)
    next_id = [0]
    seen = set()

    def call(method, params=None):
        next_id[0] += 1
        ws.send(json.dumps({"id": next_id[0], "method": method, "params": params or {}}))
        while True:
            answer = json.loads(ws.recv())
            if "method" in answer:
                seen.add(answer["method"])
            elif answer.get("id") == next_id[0]:
                if "error" in answer:
                    sys.exit(f"{method}: {answer['error']}")
                return answer["result"]

    def wait_for(method):
        while method not in seen:
            answer = json.loads(ws.recv())
            if "method" in answer:
                seen.add(answer["method"])

    call("Page.enable")
    call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    if args.preload_source:
        call("Page.addScriptToEvaluateOnNewDocument", {"source": args.preload_source})
    seen.discard("Page.loadEventFired")
    call("Page.navigate", {"url": args.url})
    wait_for("Page.loadEventFired")
    result = call("Runtime.evaluate", {"expression": expression(args.drive, args.timeout), "awaitPromise": True, "returnByValue": True})
    if "exceptionDetails" in result:
        sys.exit(f"script: {result['exceptionDetails']}")
    if args.screenshot:
        shot = call("Page.captureScreenshot", {"format": "png"})
        with open(args.screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    print(result["result"].get("value"))
    if args.preload_source:
        log = call("Runtime.evaluate", {"expression": socket_log_expression(), "returnByValue": True})
        print("sockets=" + log["result"].get("value"))
finally:
    stop_browser(browser, profile)
