#!/usr/bin/env python3
"""Drives /ws, /ws/search and /ws/form of a running service and validates every event it
receives against the service's own /asyncapi.json (the payload schema of the channel's receive
message whose `type` matches). Usage: validate_events.py PORT. Exit 0 when every event is valid
and each channel produced its expected event types; 1 otherwise, naming the event."""
import json
import sys
import urllib.request

import jsonschema
import websocket

PORT = int(sys.argv[1])
BASE = f"127.0.0.1:{PORT}"
document = json.load(urllib.request.urlopen(f"http://{BASE}/asyncapi.json", timeout=10))
assert document["asyncapi"].startswith("3."), document["asyncapi"]
messages = document["components"]["messages"]


def resolve(ref):
    node = document
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def receive_schemas(address):
    """The payload schemas of the receive operation of the channel at `address`, by `type`."""
    channel_id = next(cid for cid, channel in document["channels"].items() if channel["address"] == address)
    schemas = {}
    for operation in document["operations"].values():
        if operation["action"] == "receive" and operation["channel"]["$ref"] == f"#/channels/{channel_id}":
            for ref in operation["messages"]:
                payload = resolve(resolve(ref["$ref"])["$ref"])["payload"]
                schemas.setdefault(payload["properties"]["type"]["const"], []).append(payload)
    return schemas


failures = []

# The check can fail: a result with an unknown status, or an extra field, must be rejected.
for bad in ({"type": "result", "query": "x", "status": "bogus", "users": []},
            {"type": "result", "query": "x", "status": "found", "users": [], "extra": 1}):
    try:
        jsonschema.validate(bad, receive_schemas("/ws")["result"][0])
        failures.append(f"the schema accepted {bad}")
    except jsonschema.ValidationError:
        pass


def session(address, frames, expected_types):
    schemas = receive_schemas(address)
    ws = websocket.create_connection(f"ws://{BASE}{address}", timeout=5)
    seen = []
    for frame in [None] + frames:
        if frame is not None:
            ws.send(frame)
        # Read what this frame causes (hello first); the service is on a real clock here.
        ws.settimeout(0.8)
        while True:
            try:
                text = ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            event = json.loads(text)
            seen.append(event["type"])
            candidates = schemas.get(event["type"], [])
            errors = []
            for schema in candidates:
                try:
                    jsonschema.validate(event, schema)
                    errors = []
                    break
                except jsonschema.ValidationError as error:
                    errors.append(error.message)
            if not candidates or errors:
                failures.append(f"{address}: {text}: {errors or 'no message of this type on the channel'}")
    ws.close()
    missing = set(expected_types) - set(seen)
    if missing:
        failures.append(f"{address}: never received {sorted(missing)} (got {seen})")
    return seen


session("/ws", ["h", '{"type":"input","value":"heckj"}', "{oops", '{"type":"nope"}'],
        ["hello", "activity", "result", "error"])
session("/ws/search", ['{"type":"input","value":"heck"}', '{"type":"refresh"}', "   ", "{oops"],
        ["hello", "activity", "refreshing", "search", "error"])
session("/ws/form", ['{"type":"submit"}', '{"type":"field","name":"value1","value":"abc"}',
                     '{"type":"field","name":"value2","value":"secret"}',
                     '{"type":"field","name":"value2_repeat","value":"secret"}', '{"type":"submit"}', "{oops"],
        ["hello", "validation", "submit", "submitted", "error"])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every event valid")
