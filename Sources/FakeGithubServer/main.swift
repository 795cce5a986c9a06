import ArgumentParser
import Dispatch
import FakeGithub
import Foundation

/// FakeGithub as a standalone process, for `make demo`, scripts (scripts/schemathesis.sh,
/// scripts/container-test.sh) and manual runs:
///
///     swift run FakeGithubServer --port 0 --demo
///     listening on http://127.0.0.1:PORT
///
/// Serves until SIGTERM or SIGINT.
struct FakeGithubServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "FakeGithubServer",
        abstract: "A fake GitHub API on 127.0.0.1, for tests, scripts and `make demo`.",
        discussion: """
            GET /users/{login} answers the fixtures heckj, heck and hec (with ETag, 304 on \
            If-None-Match, Cache-Control and x-ratelimit-* headers); other logins get 404 unless \
            --any-login is given. GET /search/users?q=…&per_page=… searches the fixtures' logins \
            (rate-limit resource `search`; an empty or over-256-character query gets 422). Prints \
            `listening on http://127.0.0.1:PORT` once it listens, then serves until SIGTERM or SIGINT.

            With --demo (implies --any-login), these logins show the service's failure handling:
            \(FakeGithubDemo.logins.map { "  \($0.login): \($0.shows)" }.joined(separator: "\n"))
            """)

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: UInt16 = 0

    @Flag(help: "Answer every valid login without a fixture with a made-up user (the same one each time) instead of 404.")
    var anyLogin = false

    @Flag(help: "The demo's GitHub: --any-login, plus the logins listed above with their faults (searchable too).")
    var demo = false

    func run() throws {
        let fake = FakeGithub(port: port)
        if demo { FakeGithubDemo.install(on: fake) }
        if anyLogin { fake.answersAnyLogin = true }
        let url: URL
        do {
            url = try fake.start()
        } catch {
            throw ValidationError("cannot listen on 127.0.0.1:\(port): \(error)")
        }
        FileHandle.standardOutput.write(Data("listening on \(url.absoluteString)\n".utf8))
        // SIGTERM or SIGINT stops the fake and returns from `run`, so the process ends through
        // `main` with everything released (an `exit` from the handler left the command and the
        // sources behind, which LeakSanitizer reports in `make asan`).
        let stopped = DispatchSemaphore(value: 0)
        let signals = DispatchQueue(label: "fakegithub.signals")
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signals)
            source.setEventHandler { stopped.signal() }
            source.resume()
            sources.append(source)
        }
        stopped.wait()
        sources.forEach { $0.cancel() }
        fake.stop()
    }
}

FakeGithubServerCommand.main()
