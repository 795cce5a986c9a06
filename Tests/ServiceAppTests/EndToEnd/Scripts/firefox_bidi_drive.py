#!/usr/bin/env python3
"""Drives one page in headless Firefox over WebDriver BiDi (firefox-esr speaks it natively; no
geckodriver): with --preload FILE, runs FILE in every new document before the page's own scripts
(script.addPreloadScript); navigates to URL, waits for the page's WebSocket to be open
(#connection data-state=open), runs the JavaScript in DRIVE_FILE as the body of a function given
`$` (getElementById), `doc` and `finish(text)`, and prints what it finished with; with a preload,
a second line `sockets=` and JSON.stringify(window.__socketLog). With SCREENSHOT, saves a PNG
screenshot there. Exit 1 on any protocol error or a 20 s timeout.
Usage: firefox_bidi_drive.py FIREFOX URL DRIVE_FILE [SCREENSHOT] [--preload FILE]"""
import base64
import json
import socket
import subprocess
import sys
import tempfile
import time

import websocket

from drive_expression import arguments, expression

firefox, url, drive, screenshot, preload = arguments(sys.argv[1:])

with socket.socket() as probe:  # a free loopback port for the BiDi server
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
profile = tempfile.mkdtemp(prefix="firefox-bidi-")
browser = subprocess.Popen([firefox, "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port", str(port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.time() + 30
    while True:
        try:
            ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=25, suppress_origin=True)
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
    if preload:
        call("script.addPreloadScript", {"functionDeclaration": "() => {\n" + preload + "\n}"})
    call("browsingContext.navigate", {"context": context, "url": url, "wait": "complete"})
    result = call("script.evaluate", {"expression": expression(drive), "target": {"context": context}, "awaitPromise": True})
    if result.get("type") != "success":
        sys.exit(f"script: {result}")
    if screenshot:
        shot = call("browsingContext.captureScreenshot", {"context": context})
        with open(screenshot, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
    print(result["result"].get("value"))
    if preload:
        log = call("script.evaluate", {"expression": "JSON.stringify(window.__socketLog || null)",
                                       "target": {"context": context}, "awaitPromise": False})
        print("sockets=" + log["result"].get("value"))
    try:
        call("session.end", {})
    except Exception:
        pass
finally:
    browser.terminate()
    try:
        browser.wait(timeout=10)
    except subprocess.TimeoutExpired:
        browser.kill()
