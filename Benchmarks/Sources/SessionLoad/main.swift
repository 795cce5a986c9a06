// Session load: N WebSocket sessions on the service's `/ws` typing GitHub logins at human speed
// (see scripts/session-load.sh and docs/benchmarks.md). Loopback only. Release builds only:
//
//     SessionLoad --url ws://127.0.0.1:8080/ws [--sessions 1000] [--duration 60] [--ramp 2]
//                 [--upstream-delay-ms 50] [--upstream-stats http://127.0.0.1:P/__stats]
//                 [--shards 2] [--seed 1] [--label NAME] [--metrics http://127.0.0.1:8080/metrics]
//                 [--mux N]
//
// With --mux N the URL is the service's /ws/pipelines and every N sessions share one connection,
// each as a github-user subscription with unlimited demand (the sessions are the users: 3,000
// sessions with --mux 3 make 1,000 connections).
//
// Server-added latency is told apart for finals that went upstream (an activity after the final
// keystroke: the fake's delay subtracted), finals answered from the cache (nothing subtracted)
// and local ones; the time queued at the upstream gate comes from the service's /metrics.
// Prints a summary on stderr and one JSON object on stdout. Exit status 1 when any session
// failed (handshake, unexpected close, bad or error events, activity order, missing results).
import Foundation

exit(LoadRunner.run())
