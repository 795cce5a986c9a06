#!/usr/bin/env python3
"""Drives /ws, /ws/search, /ws/form and /ws/pipelines of a running service and validates every event it
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


def receive_schemas(address, action="receive"):
    """The payload schemas of the receive (or send) operation of the channel at `address`, by `type`."""
    channel_id = next(cid for cid, channel in document["channels"].items() if channel["address"] == address)
    schemas = {}
    for operation in document["operations"].values():
        if operation["action"] == action and operation["channel"]["$ref"] == f"#/channels/{channel_id}":
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


def check(address, text, event, schemas):
    """Validates `event` against the channel's messages of its type."""
    candidates = schemas.get(event["type"], [])
    errors = []
    for schema in candidates:
        try:
            jsonschema.validate(event, schema)
            return
        except jsonschema.ValidationError as error:
            errors.append(error.message)
    failures.append(f"{address}: {text}: {errors or 'no message of this type on the channel'}")


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
            check(address, text, event, schemas)
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

# The same sessions with ?trace=1: trace events too, at the catalog's stages, t non-decreasing.
catalog = {entry["path"]: entry["stages"] for entry in json.loads(
    urllib.request.urlopen(f"http://{BASE}/api/pipelines", timeout=5).read())}


def traced_session(address, frames, expected_types):
    ws_address = address + "?trace=1"
    seen_stages = set()
    last_t = -1.0
    schemas = receive_schemas(address)
    ws = websocket.create_connection(f"ws://{BASE}{ws_address}", timeout=5)
    types = []
    for frame in [None] + frames:
        if frame is not None:
            ws.send(frame)
        ws.settimeout(0.8)
        while True:
            try:
                text = ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            event = json.loads(text)
            types.append(event["type"])
            check(ws_address, text, event, schemas)
            if event["type"] == "trace":
                if event["stage"] not in catalog[address]:
                    failures.append(f"{ws_address}: stage {event['stage']} is not in the catalog {catalog[address]}")
                if event["t"] < last_t:
                    failures.append(f"{ws_address}: t went down: {last_t} then {text}")
                last_t = event["t"]
                seen_stages.add(event["stage"])
    ws.close()
    if "trace" not in types:
        failures.append(f"{ws_address}: no trace events")
    missing = set(expected_types) - set(types)
    if missing:
        failures.append(f"{ws_address}: never received {sorted(missing)}")
    return seen_stages


stages = traced_session("/ws", ["h", "heckj"], ["hello", "result", "trace"])
if set(stages) != set(catalog["/ws"]):
    failures.append(f"/ws?trace=1: stages seen {sorted(stages)}, catalog {catalog['/ws']}")
traced_session("/ws/search", ['{"type":"input","value":"heck"}', '{"type":"refresh"}'], ["hello", "search", "trace"])
traced_session("/ws/form", ['{"type":"field","name":"value1","value":"abc"}'], ["hello", "validation", "trace"])



# /ws/pipelines (the service runs with mux.maxPendingEvents 2 and mux.maxSubscriptions 4): every
# frame against the channel's schemas, and every event's `event` also against the schemas of
# its pipeline's own endpoint.
def mux_session():
    address = "/ws/pipelines"
    schemas = receive_schemas(address)
    endpoints = {"github-user": "/ws", "github-search": "/ws/search", "form": "/ws/form"}
    endpoint_schemas = {name: receive_schemas(path) for name, path in endpoints.items()}
    # The check can fail: an event frame whose event is no pipeline's must be rejected.
    try:
        jsonschema.validate({"type": "event", "id": "u1", "event": {"type": "result", "query": "x"}}, schemas["event"][0])
        failures.append("the event schema accepted an event no pipeline sends")
    except jsonschema.ValidationError:
        pass
    pipelines = {}
    frames = [
        # Refused definitions: bad_pipeline with a stage, and with null (the whole).
        {"type": "subscribe", "id": "b1", "pipeline": {"stages": [{"op": "delay"}, {"op": "map", "fn": "count"}, {"op": "retry", "times": 1}]}},
        {"type": "subscribe", "id": "b2", "pipeline": {"stages": []}},
        {"type": "subscribe", "id": "u1", "pipeline": "github-user", "demand": 1, "trace": True},
        {"type": "subscribe", "id": "s1", "pipeline": "github-search"},
        {"type": "subscribe", "id": "f1", "pipeline": "form", "demand": 10},
        {"type": "send", "id": "u1", "message": {"type": "input", "value": "heckj"}},
        {"type": "request", "id": "u1", "n": "unlimited"},
        {"type": "send", "id": "u1", "message": "{oops"},
        {"type": "send", "id": "s1", "message": {"type": "input", "value": "heck"}},
        {"type": "send", "id": "s1", "message": {"type": "refresh"}},
        {"type": "send", "id": "f1", "message": {"type": "field", "name": "value1", "value": "abc"}},
        {"type": "send", "id": "f1", "message": {"type": "submit"}},
        {"type": "subscribe", "id": "o1", "pipeline": "form", "demand": 0},
        {"type": "subscribe", "id": "x1", "pipeline": "form"},
        {"type": "subscribe", "id": "x2", "pipeline": "form"},
        {"type": "subscribe", "id": "x1", "pipeline": "form"},
        {"type": "subscribe", "id": "x3", "pipeline": "nope"},
        {"type": "request", "id": "zz", "n": 1},
        {"type": "request", "id": "u1", "n": 0},
        "{oops",
        {"type": "cancel", "id": "s1"},
        # Composed pipelines: a value-producing one with traces, and one ending in a lookup.
        {"type": "subscribe", "id": "c1", "pipeline": {"stages": [{"op": "map", "fn": "uppercased"}, {"op": "collect", "count": 2}]},
         "trace": True},
        {"type": "send", "id": "c1", "message": "heck"},
        {"type": "send", "id": "c1", "message": {"type": "input", "value": "heckj"}},
        {"type": "cancel", "id": "c1"},
        {"type": "subscribe", "id": "c2", "pipeline": {"stages": [{"op": "removeDuplicates"}, {"op": "lookup", "source": "github-user"}]}},
        {"type": "send", "id": "c2", "message": "hec"},  # not cached: activity, result, activity
    ]
    # A composed instance's events: its hello and values, and the lookup endpoints' own events.
    composed_names = ["composedHello", "composedValue", "activity", "result", "search", "error"]
    endpoint_schemas["composed"] = {}
    for name in composed_names:
        payload = messages[name]["payload"]
        endpoint_schemas["composed"].setdefault(payload["properties"]["type"]["const"], []).append(payload)
    composed_seen = set()
    ws = websocket.create_connection(f"ws://{BASE}{address}", timeout=5)
    seen = []
    for frame in frames:
        if isinstance(frame, dict) and frame["type"] == "subscribe":
            pipelines[frame["id"]] = frame["pipeline"] if isinstance(frame["pipeline"], str) else "composed"
        ws.send(frame if isinstance(frame, str) else json.dumps(frame))
        ws.settimeout(0.8)
        while True:
            try:
                text = ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            event = json.loads(text)
            seen.append(event["type"] if event["type"] != "error" else "error:" + event["code"])
            check(address, text, event, schemas)
            if event["type"] == "event":
                inner = event["event"]
                check(f"{address} {pipelines[event['id']]}", json.dumps(inner), inner, endpoint_schemas[pipelines[event["id"]]])
                if pipelines[event["id"]] == "composed":
                    composed_seen.add(inner["type"])
            if event["type"] == "trace":
                pipeline = pipelines[event["id"]]
                lanes = catalog[endpoints[pipeline]] if pipeline != "composed" else ["input", "0:map", "1:collect"]
                if event["stage"] not in lanes:
                    failures.append(f"{address}: stage {event['stage']} is not one of {lanes}")
    ws.close()
    expected = {"subscribed", "event", "trace", "completion", "error:bad_message", "error:unknown_id", "error:duplicate_id",
                "error:unknown_pipeline", "error:bad_pipeline", "error:bad_demand", "error:too_many_subscriptions"}
    missing = expected - set(seen)
    if missing:
        failures.append(f"{address}: never received {sorted(missing)} (got {seen})")
    missing = {"hello", "value", "activity", "result"} - composed_seen
    if missing:
        failures.append(f"{address}: the composed subscriptions never sent {sorted(missing)} (got {sorted(composed_seen)})")


# Composed pipelines: the subscribe schema takes every preset GET /api/operators lists and refuses
# what the service refuses by shape (an unknown parameter, an unknown op); the error schema wants a
# stage on bad_pipeline errors and none on others.
def composed_schemas():
    subscribe = receive_schemas("/ws/pipelines", action="send")["subscribe"][0]
    error = receive_schemas("/ws/pipelines")["error"][0]
    catalog = json.loads(urllib.request.urlopen(f"http://{BASE}/api/operators", timeout=5).read())
    if not catalog["presets"]:
        failures.append("GET /api/operators lists no presets")
    for preset in catalog["presets"]:
        frame = {"type": "subscribe", "id": "c", "pipeline": preset["definition"], "demand": 16, "trace": True}
        try:
            jsonschema.validate(frame, subscribe)
        except jsonschema.ValidationError as error_:
            failures.append(f"preset {preset['name']}: {error_.message}")
    refused = [
        {"type": "subscribe", "id": "c", "pipeline": {"stages": [{"op": "delay", "latest": True}]}},
        {"type": "subscribe", "id": "c", "pipeline": {"stages": [{"op": "nope"}]}},
        {"type": "subscribe", "id": "c", "pipeline": {"stages": [{"op": "delay"}], "name": "x"}},
        {"type": "error", "id": "c", "code": "bad_pipeline", "message": "m"},
        {"type": "error", "id": "c", "code": "bad_demand", "message": "m", "stage": 1},
    ]
    for bad in refused:
        try:
            jsonschema.validate(bad, subscribe if bad["type"] == "subscribe" else error)
            failures.append(f"the schema accepted {bad}")
        except jsonschema.ValidationError:
            pass


composed_schemas()
mux_session()

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every event valid")
