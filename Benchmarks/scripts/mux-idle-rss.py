#!/usr/bin/env python3
"""Memory per idle pipeline subscription: opens N idle instances of PIPELINE on a running
ServiceApp (pid PID, port PORT), either as N sessions of the pipeline's own endpoint (`endpoint`)
or as N subscriptions of /ws/pipelines, 16 per connection (`mux`), waits for every hello, and
prints the service's VmRSS growth per instance. Start the service with a config that lifts
limits.sessionsPerClient (all sockets come from 127.0.0.1); run each mode on a fresh process.

A PIPELINE that starts with `{` is a definition object (a composed pipeline, `mux` only), e.g.
the github-user preset: '{"stages":[{"op":"throttle","ms":500,"latest":true},
{"op":"removeDuplicates"},{"op":"lookup","source":"github-user","flatten":"switchToLatest"}]}'.

Usage: mux-idle-rss.py PID PORT endpoint|mux N [github-user|github-search|form|DEFINITION]
"""
import websocket, json, sys, time, os, gc
pid, port, mode, n = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
pipeline = sys.argv[5] if len(sys.argv) > 5 else "github-user"
wire_pipeline = json.loads(pipeline) if pipeline.startswith("{") else pipeline
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1])
def settle():
    time.sleep(1.0)
    return rss()
before = settle()
socks = []
if mode == "endpoint":
    path = {"github-user": "/ws", "github-search": "/ws/search", "form": "/ws/form"}[pipeline]
    for i in range(n):
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=10); ws.recv(); socks.append(ws)
else:
    per = 16
    for c in range((n + per - 1) // per):
        ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws/pipelines", timeout=10)
        k = min(per, n - c * per)
        for i in range(k):
            ws.send(json.dumps({"type": "subscribe", "id": f"s{i}", "pipeline": wire_pipeline}))
        got = 0
        while got < k:
            if '"hello"' in ws.recv(): got += 1
        socks.append(ws)
after = settle()
print(f"{mode} {'composed' if pipeline.startswith('{') else pipeline} n={n} sockets={len(socks)} rss_before_kB={before} rss_after_kB={after} per_subscription_bytes={(after-before)*1024//n}")
for ws in socks: ws.close()
