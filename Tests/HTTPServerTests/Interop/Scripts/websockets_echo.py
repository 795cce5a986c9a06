#!/usr/bin/env python3
"""Interop check of the server's WebSocket echo with the `websockets` library, compression on.

Usage: websockets_echo.py ws://127.0.0.1:PORT/ws/echo
Prints one JSON object: {"ok": bool, "checks": {name: bool}, "details": {...}, "errors": [...]}.
Exit status 0 when every check passed, 1 otherwise, 2 when `websockets` is not importable.
"""
import asyncio
import json
import os
import sys

try:
    import websockets
except ImportError:  # the Swift test turns this into a skip (or a failure under CI)
    print(json.dumps({"ok": False, "missing": "websockets"}))
    sys.exit(2)

try:  # websockets >= 13
    from websockets.asyncio.client import connect
except ImportError:  # older releases: the legacy client has the same calls used here
    from websockets import connect


def extension_names(ws):
    protocol = getattr(ws, "protocol", None)
    extensions = getattr(protocol, "extensions", None)
    if extensions is None:
        extensions = getattr(ws, "extensions", [])
    return [getattr(e, "name", type(e).__name__) for e in extensions]


def response_header(ws, name):
    response = getattr(ws, "response", None)
    headers = response.headers if response is not None else getattr(ws, "response_headers", {})
    return headers.get(name, "")


checks = {}
details = {"websockets": websockets.__version__}
errors = []


async def main(url):

    async def echo(name, message):
        await ws.send(message)
        reply = await asyncio.wait_for(ws.recv(), 5)
        checks[name] = reply == message and type(reply) is type(message)
        if not checks[name]:
            errors.append(f"{name}: sent {len(message)} {type(message).__name__}, got {len(reply)} {type(reply).__name__}")

    ws = await connect(url, compression="deflate", max_size=4 << 20, open_timeout=5, close_timeout=5)
    try:
        details["extensions"] = extension_names(ws)
        details["extension_header"] = response_header(ws, "Sec-WebSocket-Extensions")
        checks["deflate_negotiated"] = "permessage-deflate" in details["extensions"] and details[
            "extension_header"
        ].startswith("permessage-deflate")

        await echo("text_small", "hello")
        await echo("text_empty", "")
        await echo("text_64k", "".join(f"line {i:05d} of a compressible text\n" for i in range(2048))[: 64 << 10])
        await echo("text_unicode", "héllo wörld — ☃ 日本語 🎉 " * 200)
        await echo("binary_small", bytes([0, 1, 2, 0xFF]))
        await echo("binary_random_100k", os.urandom(100 << 10))  # incompressible
        await echo("binary_zeros_1m", bytes(1 << 20))  # highly compressible

        # A fragmented message (the library sends one frame per item).
        await ws.send(["frag-1 ", "frag-2 ", "frag-3"])
        reply = await asyncio.wait_for(ws.recv(), 5)
        checks["text_fragmented"] = reply == "frag-1 frag-2 frag-3"

        pong = await ws.ping(b"interop-ping")
        details["ping_latency_s"] = await asyncio.wait_for(pong, 5)  # None before websockets 11
        checks["ping_pong"] = True

        # Several messages in flight at once come back in order.
        burst = [f"burst {i}" for i in range(50)]
        for message in burst:
            await ws.send(message)
        replies = [await asyncio.wait_for(ws.recv(), 5) for _ in burst]
        checks["burst_in_order"] = replies == burst
    finally:
        await ws.close(code=1000, reason="interop done")

    details["close_code"] = ws.close_code
    details["close_reason"] = ws.close_reason
    checks["close_1000"] = ws.close_code == 1000
    ok = all(checks.values()) and not errors
    return {"ok": ok, "checks": checks, "details": details, "errors": errors}


if __name__ == "__main__":
    try:
        verdict = asyncio.run(main(sys.argv[1]))
    except Exception as error:  # report, don't trace: the Swift test prints the verdict
        errors.append(f"{type(error).__name__}: {error}")
        verdict = {"ok": False, "checks": checks, "details": details, "errors": errors}
    print(json.dumps(verdict, default=str))
    sys.exit(0 if verdict["ok"] else 1)
