#!/usr/bin/env python3
"""Interop check of the server's WebSocket echo with `websocket-client` (no compression).

Usage: websocket_client_echo.py ws://127.0.0.1:PORT/ws/echo
Prints one JSON object: {"ok": bool, "checks": {name: bool}, "details": {...}, "errors": [...]}.
Exit status 0 when every check passed, 1 otherwise, 2 when `websocket` is not importable.
"""
import json
import os
import struct
import sys

try:
    import websocket
except ImportError:  # the Swift test turns this into a skip (or a failure under CI)
    print(json.dumps({"ok": False, "missing": "websocket-client"}))
    sys.exit(2)


checks = {}
details = {"websocket_client": getattr(websocket, "__version__", "?")}
errors = []


def main(url):
    ws = websocket.create_connection(url, timeout=5)
    headers = {k.lower(): v for k, v in (ws.getheaders() or {}).items()}
    # The client offers no extension, so the server must not answer with one.
    checks["no_extension"] = "sec-websocket-extensions" not in headers

    def echo(name, message, binary=False):
        if binary:
            ws.send_binary(message)
        else:
            ws.send(message)
        opcode, data = ws.recv_data(control_frame=False)
        expected = websocket.ABNF.OPCODE_BINARY if binary else websocket.ABNF.OPCODE_TEXT
        got = data if binary else data.decode("utf-8")
        checks[name] = opcode == expected and got == message
        if not checks[name]:
            errors.append(f"{name}: opcode {opcode}, {len(data)} bytes")

    echo("text_small", "hello")
    echo("text_unicode", "héllo ☃ 日本語 🎉" * 100)
    echo("text_64k", "x" * (64 << 10))
    echo("binary_random_100k", os.urandom(100 << 10), binary=True)

    ws.ping("interop-ping")
    opcode, frame = ws.recv_data_frame(control_frame=True)
    checks["ping_pong"] = opcode == websocket.ABNF.OPCODE_PONG and frame.data == b"interop-ping"

    ws.send_close(websocket.STATUS_NORMAL, b"interop done")
    opcode, frame = ws.recv_data_frame(control_frame=True)
    code = struct.unpack("!H", frame.data[:2])[0] if len(frame.data) >= 2 else None
    details["close_code"] = code
    checks["close_1000"] = opcode == websocket.ABNF.OPCODE_CLOSE and code == 1000
    ws.shutdown()
    return {"ok": all(checks.values()) and not errors, "checks": checks, "details": details, "errors": errors}


if __name__ == "__main__":
    try:
        verdict = main(sys.argv[1])
    except Exception as error:
        errors.append(f"{type(error).__name__}: {error}")
        verdict = {"ok": False, "checks": checks, "details": details, "errors": errors}
    print(json.dumps(verdict, default=str))
    sys.exit(0 if verdict["ok"] else 1)
