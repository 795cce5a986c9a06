import Foundation
import XCTest

/// `deploy/`: the Kubernetes manifests validate strictly against the Kubernetes schemas
/// (`kubernetes-validate --strict`, from PyPI), and the compose file wires two replicas behind
/// nginx with the nginx configuration that `NginxProxyTests` runs for real.
final class DeployManifestsTests: XCTestCase {
    private let deploy = ChildProcess.packageRoot.appendingPathComponent("deploy")

    private func require(_ tool: String, install: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)") {
            return URL(fileURLWithPath: "\(directory)/\(tool)")
        }
        let message = "\(tool) is not installed; install it with: \(install)"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            throw ToolMissing(message: "CI is set, so this fails instead of skipping: \(message)")
        }
        throw XCTSkip(message)
    }

    func testKubernetesManifestsValidateStrictly() throws {
        let validate = try require("kubernetes-validate", install: "pip install kubernetes-validate")
        let manifests = try FileManager.default.contentsOfDirectory(atPath: deploy.appendingPathComponent("kubernetes").path)
            .filter { $0.hasSuffix(".yaml") }.map { deploy.appendingPathComponent("kubernetes/\($0)").path }
        XCTAssertFalse(manifests.isEmpty)
        let run = try ChildProcess(validate, ["--strict"] + manifests)
        XCTAssertEqual(run.waitForExit(timeout: 60), 0, run.output)
        for kind in [
            "deployment/serviceapp", "service/serviceapp", "poddisruptionbudget/serviceapp",
            "statefulset/redis", "service/redis", "configmap/serviceapp",
        ] {
            XCTAssertTrue(run.output.contains("passed for resource \(kind)"), "\(kind) not validated:\n\(run.output)")
        }
        let text = try String(contentsOf: deploy.appendingPathComponent("kubernetes/serviceapp.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("path: /readyz") && text.contains("path: /healthz"), "readiness and liveness probes")
        let grace = text.components(separatedBy: "terminationGracePeriodSeconds: ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        // The drain grace period (issue #31): /readyz 503 while serving, before the 10 s drain.
        let drainGrace = text.components(separatedBy: #"{ name: DRAIN_GRACE_PERIOD_SECONDS, value: ""#).dropFirst().first
            .flatMap { Int($0.prefix { $0.isNumber }) }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(drainGrace, "DRAIN_GRACE_PERIOD_SECONDS is set"), 10, "at least two readiness periods")
        XCTAssertTrue(text.contains("failureThreshold: 1"), "one 503 takes the pod out of rotation")
        XCTAssertGreaterThan(try XCTUnwrap(grace), try XCTUnwrap(drainGrace) + 10, "longer than the grace period and the 10 s drain")
    }

    func testComposeRunsTwoReplicasBehindNginx() throws {
        let python = try require("python3", install: "apt-get install python3 python3-yaml")
        let script = """
            import sys, yaml
            compose = yaml.safe_load(open(sys.argv[1]))
            services = compose["services"]
            assert {"replica1", "replica2", "nginx"} <= set(services), services.keys()
            assert services["replica2"]["build"]["dockerfile"] == "Dockerfile"
            assert "./nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in services["nginx"]["volumes"]
            assert "TRUSTED_PROXIES" in services["replica1"]["environment"]
            assert services["replica2"]["environment"]["REDIS_URL"].startswith("redis://redis:")
            assert "redis" in services
            print("compose ok")
            """
        let run = try ChildProcess(python, ["-c", script, deploy.appendingPathComponent("docker-compose.yml").path])
        XCTAssertEqual(run.waitForExit(timeout: 30), 0, run.output)
        XCTAssertTrue(run.output.contains("compose ok"), run.output)
    }
}
