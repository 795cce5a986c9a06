import Dispatch
import Foundation

/// The whole run (not in main.swift: top-level code there is main-actor isolated, and the
/// timers and callbacks below run on other queues).
enum LoadRunner {
    /// Runs the load; returns the exit status.
    static func run() -> Int32 {
        let urlText = option("--url") ?? "ws://127.0.0.1:8080/ws"
        guard let url = URLComponents(string: urlText), url.scheme == "ws", let host = url.host, let port = url.port,
              host.hasPrefix("127.") || host == "localhost" else {
            log("SessionLoad: --url must be ws://127.x.x.x:PORT/PATH (loopback only), got \(urlText)")
            return 2
        }
        let sessionCount = option("--sessions").flatMap(Int.init) ?? 1_000
        let duration = option("--duration").flatMap(Double.init) ?? 60
        let ramp = option("--ramp").flatMap(Double.init) ?? 2
        let upstreamDelayMs = option("--upstream-delay-ms").flatMap(Int.init) ?? 50
        let statsURL = option("--upstream-stats")
        let shardCount = max(1, option("--shards").flatMap(Int.init) ?? 2)
        let seed = option("--seed").flatMap(UInt64.init) ?? 1
        let label = option("--label") ?? "run"
        let replay = option("--names") == "replay"
        let muxPerConnection = max(0, option("--mux").flatMap(Int.init) ?? 0)
        if CommandLine.arguments.contains("--print-existing") {
            // The logins FakeUpstream should answer for a replay of this many sessions.
            print(ReplayVocabulary(sessions: sessionCount).existing.sorted().joined(separator: "\n"))
            return 0
        }

        let upstreamBefore = statsURL.flatMap(UpstreamStats.read(url:))
        // The service's own /metrics, for the time lookups queued at the upstream gate.
        let metricsURL = option("--metrics") ?? "http://\(host == "localhost" ? "127.0.0.1" : host):\(port)/metrics"
        let gateBefore = UpstreamStats.gateWait(metricsURL: metricsURL)
        if statsURL != nil, upstreamBefore == nil { log("SessionLoad: cannot read \(statsURL ?? "")") }
        let loadBefore = loadAverage()
        let start = monotonicNow()
        let endTime = start + UInt64((ramp + duration) * 1e9)
        let plan = LoadPlan(
            host: host == "localhost" ? "127.0.0.1" : host, port: UInt16(port), path: url.path.isEmpty ? "/" : url.path,
            endTime: endTime, upstreamDelayNs: UInt64(max(0, upstreamDelayMs)) * 1_000_000,
            vocabulary: replay ? ReplayVocabulary(sessions: sessionCount) : nil
        )
        let sharing = muxPerConnection > 0 ? " (\(muxPerConnection) github-user subscriptions per connection)" : ""
        log("[\(label)] \(sessionCount) sessions on \(urlText)\(sharing), ramp \(ramp) s, typing until t = \(ramp + duration) s; load average \(loadBefore)")

        let shards = (0..<shardCount).map(Shard.init(index:))
        let group = DispatchGroup()
        var muxConnection: MuxConnection?
        for index in 0..<sessionCount {
            // With --mux N, users index/N share connection number index/N (on one shard).
            let connectionIndex = muxPerConnection > 0 ? index / muxPerConnection : index
            let connectionCount = muxPerConnection > 0 ? (sessionCount + muxPerConnection - 1) / muxPerConnection : sessionCount
            let shard = shards[connectionIndex % shardCount]
            let sessionSeed = seed &* 1_000_003 &+ UInt64(index)
            let link: SessionLink
            if muxPerConnection > 0 {
                if index % muxPerConnection == 0 {
                    muxConnection = MuxConnection(
                        connection: ClientConnection(queue: shard.queue, readBuffer: shard.readBuffer, seed: UInt32(truncatingIfNeeded: sessionSeed &* 2_654_435_761)),
                        host: plan.host, port: plan.port, path: plan.path)
                }
                link = muxConnection!.link(id: "u\(index % muxPerConnection)")
            } else {
                link = EndpointLink(
                    connection: ClientConnection(queue: shard.queue, readBuffer: shard.readBuffer, seed: UInt32(truncatingIfNeeded: sessionSeed &* 2_654_435_761)),
                    host: plan.host, port: plan.port, path: plan.path)
            }
            group.enter()
            let session = LoadSession(shard: shard, plan: plan, index: index, seed: sessionSeed, link: link) { group.leave() }
            let openAt = start + UInt64(ramp * 1e9 * Double(connectionIndex) / Double(max(1, connectionCount)))
            shard.queue.async {
                shard.sessions.append(session)
                shard.queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: openAt)) { session.start() }
            }
        }

        // Progress every 10 s.
        let progress = DispatchSource.makeTimerSource(queue: .global())
        progress.schedule(deadline: .now() + 10, repeating: 10)
        progress.setEventHandler {
            let (open, keys, results) = shards.reduce((0, 0, 0)) { sum, shard in
                shard.queue.sync { (sum.0 + shard.stats.sessionsOpened, sum.1 + shard.stats.keystrokes, sum.2 + shard.stats.results) }
            }
            log(String(format: "[\(label)] t=%.0f s: %d sessions opened, %d keystrokes, %d results, load %@",
                       Double(monotonicNow() - start) / 1e9, open, keys, results, loadAverage()))
        }
        progress.resume()

        let finished = group.wait(timeout: DispatchTime(uptimeNanoseconds: endTime + 30_000_000_000)) == .success
        progress.cancel()
        let elapsed = Double(monotonicNow() - start) / 1e9
        Thread.sleep(forTimeInterval: 0.2)  // cancelled upstream requests already counted; let stragglers land
        let upstreamAfter = statsURL.flatMap(UpstreamStats.read(url:))
        let gateAfter = UpstreamStats.gateWait(metricsURL: metricsURL)
        let gate: (meanMs: Double, count: Int)? = if let before = gateBefore, let after = gateAfter, after.count > before.count {
            ((after.seconds - before.seconds) * 1000 / Double(after.count - before.count), after.count - before.count)
        } else { nil }
        var stats = LoadStats()
        for shard in shards { shard.queue.sync { stats.merge(shard.stats) } }
        let loadAfter = loadAverage()

        let raw = Percentiles(stats.raw)
        let added = Percentiles(stats.serverAdded)
        let addedUpstream = Percentiles(stats.serverAddedUpstream)
        let addedCached = Percentiles(stats.serverAddedCached)
        let addedLocal = Percentiles(stats.serverAddedLocal)
        let span = Percentiles(stats.upstreamSpanBeyondDelay)
        let holds = Percentiles(stats.holds)
        let upstreamCalls: Int? = if let before = upstreamBefore, let after = upstreamAfter { after.requests - before.requests } else { nil }
        let distinctLogins: Int? = if let before = upstreamBefore, let after = upstreamAfter {
            after.distinctLogins - before.distinctLogins
        } else { nil }
        let keystrokes = max(1, stats.keystrokes)
        let failures = stats.handshakeFailures + stats.unexpectedCloses + stats.errorEvents + stats.badEvents
            + stats.activityViolations + stats.missingFinals + stats.staleResults + stats.unexpectedStatuses + (finished ? 0 : 1)

        func ms(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.1f", value) }
        log("""
        [\(label)] done in \(String(format: "%.1f", elapsed)) s\(finished ? "" : " (TIMED OUT waiting for sessions)"); load average \(loadBefore) → \(loadAfter)
          sessions: \(stats.sessionsOpened) opened of \(sessionCount), \(stats.cleanCloses) closed cleanly, \(stats.handshakeFailures) handshake failures, \(stats.unexpectedCloses) unexpected closes
          keystrokes \(stats.keystrokes) (\(String(format: "%.0f", Double(stats.keystrokes) / max(1, duration)))/s), results \(stats.results) (\(String(format: "%.3f", Double(stats.results) / Double(keystrokes))) per keystroke), statuses \(stats.statusCounts.sorted { $0.key < $1.key })
          upstream calls \(upstreamCalls.map(String.init) ?? "?") (\(upstreamCalls.map { String(format: "%.3f", Double($0) / Double(keystrokes)) } ?? "?") per keystroke), new distinct logins asked \(distinctLogins.map(String.init) ?? "?") (\(perLogin(upstreamCalls, distinctLogins)) requests per distinct login)
          errors: \(stats.errorEvents) error events, \(stats.badEvents) bad events, \(stats.activityViolations) activity-order violations, \(stats.unexpectedStatuses) unexpected statuses, \(stats.missingFinals) missing final results (\(stats.lateFinals) came later), \(stats.collapsedFinals) finals already answered by the last result, \(stats.staleResults) results after the final one
          bursts \(stats.bursts) (\(stats.finalsWithLookup) with a lookup), \(stats.nextWindowFinals) finals seen after a window boundary
          final result latency (ms)  p50 \(ms(raw.p50))  p90 \(ms(raw.p90))  p99 \(ms(raw.p99))  max \(ms(raw.max))  (n=\(raw.count))
          modelled throttle hold     p50 \(ms(holds.p50))  p99 \(ms(holds.p99))  mean \(ms(holds.mean))
          server-added (ms)          p50 \(ms(added.p50))  p90 \(ms(added.p90))  p99 \(ms(added.p99))  max \(ms(added.max))
            upstream finals          p50 \(ms(addedUpstream.p50))  p99 \(ms(addedUpstream.p99))  (n=\(addedUpstream.count); the fake's delay subtracted)
            cached finals            p50 \(ms(addedCached.p50))  p99 \(ms(addedCached.p99))  (n=\(addedCached.count); valid logins with no activity after typing: nothing subtracted)
            local finals             p50 \(ms(addedLocal.p50))  p99 \(ms(addedLocal.p99))  (n=\(addedLocal.count); too short or invalid)
          upstream finals: lookup start → result, less the fake's delay: p50 \(ms(span.p50))  p99 \(ms(span.p99))
          time queued at the gate (service /metrics): \(gate.map { String(format: "mean %.1f ms over %d waits", $0.meanMs, $0.count) } ?? "? (cannot read \(metricsURL))")
        """)
        if !stats.closeReasons.isEmpty {
            for (why, count) in stats.closeReasons.sorted(by: { $0.value > $1.value }).prefix(8) { log("  close: \(count) × \(why)") }
        }

        func json(_ value: Double) -> Any { value.isNaN ? NSNull() : (value * 1000).rounded() / 1000 }
        let report: [String: Any] = [
            "label": label, "sessions": sessionCount, "subscriptionsPerConnection": muxPerConnection, "durationSeconds": duration, "elapsedSeconds": elapsed,
            "throttleMs": stats.throttleMs, "upstreamDelayMs": upstreamDelayMs,
            "loadAverageBefore": loadBefore, "loadAverageAfter": loadAfter,
            "sessionsOpened": stats.sessionsOpened, "cleanCloses": stats.cleanCloses,
            "handshakeFailures": stats.handshakeFailures, "unexpectedCloses": stats.unexpectedCloses,
            "keystrokes": stats.keystrokes, "results": stats.results,
            "resultsPerKeystroke": Double(stats.results) / Double(keystrokes),
            "upstreamCalls": upstreamCalls ?? NSNull(),
            "upstreamCallsPerKeystroke": upstreamCalls.map { Double($0) / Double(keystrokes) } ?? NSNull(),
            "distinctLogins": distinctLogins ?? NSNull(),
            "errorEvents": stats.errorEvents, "badEvents": stats.badEvents, "activityViolations": stats.activityViolations,
            "unexpectedStatuses": stats.unexpectedStatuses, "missingFinals": stats.missingFinals, "lateFinals": stats.lateFinals, "collapsedFinals": stats.collapsedFinals, "staleResults": stats.staleResults,
            "bursts": stats.bursts, "finalsWithLookup": stats.finalsWithLookup, "nextWindowFinals": stats.nextWindowFinals,
            "statuses": stats.statusCounts,
            "rawP50Ms": json(raw.p50), "rawP90Ms": json(raw.p90), "rawP99Ms": json(raw.p99), "rawMaxMs": json(raw.max),
            "holdMeanMs": json(holds.mean),
            "serverAddedP50Ms": json(added.p50), "serverAddedP90Ms": json(added.p90), "serverAddedP99Ms": json(added.p99),
            "serverAddedMaxMs": json(added.max),
            "serverAddedUpstreamP50Ms": json(addedUpstream.p50), "serverAddedUpstreamP99Ms": json(addedUpstream.p99),
            "serverAddedCachedP50Ms": json(addedCached.p50), "serverAddedCachedP99Ms": json(addedCached.p99),
            "upstreamSpanBeyondDelayP50Ms": json(span.p50), "upstreamSpanBeyondDelayP99Ms": json(span.p99),
            "gateWaitMeanMs": gate.map { json($0.meanMs) } ?? NSNull(), "gateWaits": gate?.count ?? NSNull(),
            "serverAddedLocalP50Ms": json(addedLocal.p50), "serverAddedLocalP99Ms": json(addedLocal.p99),
            "failures": failures, "timedOut": !finished,
        ]
        if let data = try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]) {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
        return failures == 0 ? 0 : 1
    }
}

/// Upstream requests per distinct login, formatted ("?" when unknown).
func perLogin(_ requests: Int?, _ logins: Int?) -> String {
    guard let requests, let logins, logins > 0 else { return "?" }
    return String(format: "%.3f", Double(requests) / Double(logins))
}

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

/// The 1, 5 and 15 minute load averages.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}
