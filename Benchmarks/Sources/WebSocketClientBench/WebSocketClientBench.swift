// The project's WebSocket load generator, on HTTPServer's WebSocketClient (one event loop, like
// the C tool wsload whose command line and JSON fields it keeps, so either can run the scripts):
//
//   WebSocketClientBench [-m echo] [-c 64] [-d 10] [-s 32] [--deflate] [-o json] ws://127.0.0.1:PORT/ws/echo
//   WebSocketClientBench -m idle -c 10000 -r 2000 -d 20 [-o json] ws://127.0.0.1:PORT/ws/echo
//
// echo: each connection sends one text message of -s bytes and waits for a message of the same
//       length before sending the next; round trips/s and latency are counted from the moment
//       every connection is open, until -d seconds after the start.
// idle: opens -c connections at -r per second and holds them, sending nothing (pings are
//       answered), until -d seconds after the start; reports handshakes and connections open.
// Exit status 1 when any connect, handshake or payload error happened (and, in echo mode, when
// the server closed a connection).
import ArgumentParser
import Foundation
import HTTPServer

@main
struct WebSocketClientBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "WebSocketClientBench",
        abstract: "A WebSocket load generator on HTTPServer's WebSocketClient (loopback benchmarks).",
        discussion: """
            Modes and JSON fields as wsload's: echo reports round trips/s ("rate") and latency \
            percentiles ("p50_us", "p90_us", "p99_us", "max_us"); idle reports "handshakes" and \
            "open". Both report "errors"; the exit status is 1 when it is not 0.
            """
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case echo, idle
    }

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .customShort("m"), help: ArgumentHelp("echo: one message in flight per connection; idle: hold connections.", valueName: "mode"))
    var mode: Mode = .echo

    @Option(name: .customShort("c"), help: ArgumentHelp("Connections.", valueName: "connections"))
    var connections = 64

    @Option(name: .customShort("d"), help: ArgumentHelp("Seconds from the start to the end of the run.", valueName: "seconds"))
    var seconds = 10

    @Option(name: .customShort("s"), help: ArgumentHelp("Message size in bytes (echo).", valueName: "bytes"))
    var size = 32

    @Option(name: .customShort("r"), help: ArgumentHelp("Connections opened per second (idle).", valueName: "rate"))
    var rate = 1000

    @Option(name: .customShort("o"), help: ArgumentHelp("text: one line; json: one JSON object.", valueName: "format"))
    var output: Output = .text

    @Flag(help: "Offer permessage-deflate (RFC 7692); wsload does not compress.")
    var deflate = false

    @Argument(help: "ws://HOST:PORT/PATH")
    var url: String

    func validate() throws {
        guard connections >= 1, seconds >= 1, size >= 0, rate >= 1 else {
            throw ValidationError("-c, -d and -r must be at least 1, -s at least 0")
        }
        guard let parsed = URL(string: url), parsed.scheme == "ws" else {
            throw ValidationError("'\(url)' is not a ws:// URL")
        }
    }

    func run() throws {
        raiseOpenFileLimit()
        let target = URL(string: url)!
        let configuration = WebSocketClientConfiguration(deflate: deflate ? PerMessageDeflateConfiguration() : nil)
        let group = try EventLoopGroup(count: 1, label: "wsclient.bench")
        let loop = group.next()
        let end = MonotonicClock.now + UInt64(seconds) * 1_000_000_000
        let report: LoadReport
        do {
            switch mode {
            case .echo:
                report = try EchoLoad(connections: connections, size: size, loop: loop)
                    .run(url: target, configuration: configuration, until: end)
            case .idle:
                report = try IdleLoad(connections: connections, rate: rate, loop: loop)
                    .run(url: target, configuration: configuration, until: end)
            }
        } catch {
            throw ValidationError("\(error)")
        }
        switch output {
        case .json: print(report.json(mode: mode.rawValue, connections: connections, size: size))
        case .text: print(report.line(mode: mode.rawValue, connections: connections, size: size, seconds: seconds))
        }
        if report.counts.errors(idle: mode == .idle) > 0 { throw ExitCode.failure }
    }

    /// Raises the soft open-file limit to the hard one, as wsload does (idle runs hold 10,000+).
    private func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// CLOCK_MONOTONIC in nanoseconds.
enum MonotonicClock {
    static var now: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps the calling thread until `deadline` (nanoseconds on this clock).
    static func sleep(until deadline: UInt64) {
        while case let current = now, current < deadline {
            let remaining = deadline - current
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}
