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
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                fake.stop()
                Foundation.exit(0)
            }
            source.resume()
            sources.append(source)
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }
}

FakeGithubServerCommand.main()
