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

    /// The managed-Redis-over-TLS variants (issue #33): the Kubernetes Deployment with its stunnel
    /// sidecar validates, its ConfigMap holds deploy/stunnel/redis-tls.conf word for word (the
    /// file `RedisTLSTunnelTests` runs), and the compose file gives each replica a tunnel in its
    /// network namespace.
    func testTheRedisTLSVariantsRunTheTestedTunnelBesideEachReplica() throws {
        let validate = try require("kubernetes-validate", install: "pip install kubernetes-validate")
        let manifest = deploy.appendingPathComponent("kubernetes/redis-tls/serviceapp.yaml")
        let run = try ChildProcess(validate, ["--strict", manifest.path])
        XCTAssertEqual(run.waitForExit(timeout: 60), 0, run.output)
        for kind in ["deployment/serviceapp", "configmap/serviceapp-stunnel", "service/serviceapp", "poddisruptionbudget/serviceapp"] {
            XCTAssertTrue(run.output.contains("passed for resource \(kind)"), "\(kind) not validated:\n\(run.output)")
        }
        let python = try require("python3", install: "apt-get install python3 python3-yaml")
        let script = """
            import sys, yaml
            docs = list(yaml.safe_load_all(open(sys.argv[1])))
            conf = open(sys.argv[2]).read()
            config_map = next(d for d in docs if d["kind"] == "ConfigMap")
            assert config_map["data"]["redis-tls.conf"] == conf, "the ConfigMap differs from deploy/stunnel/redis-tls.conf"
            pod = next(d for d in docs if d["kind"] == "Deployment")["spec"]["template"]["spec"]
            containers = {c["name"]: c for c in pod["containers"]}
            env = {e["name"]: e for e in containers["serviceapp"]["env"]}
            assert env["REDIS_URL"]["value"] == "redis://127.0.0.1:6379/0"
            assert env["REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"]["name"] == "redis-tls"
            assert "stunnel" in containers
            compose = yaml.safe_load(open(sys.argv[3]))["services"]
            for replica, tunnel in [("replica1", "tunnel1"), ("replica2", "tunnel2")]:
                assert compose[replica]["environment"]["REDIS_URL"] == "redis://127.0.0.1:6379/0"
                assert compose[tunnel]["network_mode"] == "service:" + replica
                assert "./stunnel/redis-tls.conf:/etc/stunnel/redis-tls.conf:ro" in compose[tunnel]["volumes"]
            assert "redis" not in compose, "no Redis of its own"
            print("tls ok")
            """
        let check = try ChildProcess(python, [
            "-c", script, manifest.path, deploy.appendingPathComponent("stunnel/redis-tls.conf").path,
            deploy.appendingPathComponent("docker-compose.redis-tls.yml").path,
        ])
        XCTAssertEqual(check.waitForExit(timeout: 30), 0, check.output)
        XCTAssertTrue(check.output.contains("tls ok"), check.output)
    }

    /// The Sentinel variants (issue #33): the Kubernetes StatefulSet of three redis + sentinel
    /// pods validates and gives the replicas REDIS_SENTINELS through the ConfigMap serviceapp.yaml
    /// reads; the compose file runs a master, a replica and three sentinels, the replicas pointed
    /// at the sentinels and at no Redis URL.
    func testTheSentinelVariantsPointTheReplicasAtThreeSentinels() throws {
        let validate = try require("kubernetes-validate", install: "pip install kubernetes-validate")
        let manifest = deploy.appendingPathComponent("kubernetes/sentinel/redis-sentinel.yaml")
        let run = try ChildProcess(validate, ["--strict", manifest.path])
        XCTAssertEqual(run.waitForExit(timeout: 60), 0, run.output)
        for kind in ["statefulset/redis", "service/redis", "configmap/serviceapp", "configmap/redis-sentinel"] {
            XCTAssertTrue(run.output.contains("passed for resource \(kind)"), "\(kind) not validated:\n\(run.output)")
        }
        let python = try require("python3", install: "apt-get install python3 python3-yaml")
        let script = """
            import sys, yaml
            docs = list(yaml.safe_load_all(open(sys.argv[1])))
            maps = {d["metadata"]["name"]: d for d in docs if d["kind"] == "ConfigMap"}
            sentinels = maps["serviceapp"]["data"]["redis-sentinels"].split(",")
            assert len(sentinels) == 3 and all(s.endswith(":26379") for s in sentinels), sentinels
            sts = next(d for d in docs if d["kind"] == "StatefulSet")
            assert sts["spec"]["replicas"] == 3
            assert {c["name"] for c in sts["spec"]["template"]["spec"]["containers"]} == {"redis", "sentinel"}
            assert "sentinel monitor mymaster" in maps["redis-sentinel"]["data"]["sentinel.sh"]
            app = next(d for d in yaml.safe_load_all(open(sys.argv[2])) if d["kind"] == "Deployment")
            env = {e["name"]: e for e in app["spec"]["template"]["spec"]["containers"][0]["env"]}
            assert env["REDIS_SENTINELS"]["valueFrom"]["configMapKeyRef"]["key"] == "redis-sentinels"
            compose = yaml.safe_load(open(sys.argv[3]))["services"]
            for replica in ["replica1", "replica2"]:
                assert compose[replica]["environment"]["REDIS_SENTINELS"] == "sentinel1:26379,sentinel2:26379,sentinel3:26379"
                assert "REDIS_URL" not in compose[replica]["environment"]
            assert "--replicaof" in compose["redis-replica"]["command"]
            for name in ["sentinel1", "sentinel2", "sentinel3"]:
                assert "sentinel monitor mymaster redis-master 6379 2" in compose[name]["command"][0]
            print("sentinel ok")
            """
        let check = try ChildProcess(python, [
            "-c", script, manifest.path, deploy.appendingPathComponent("kubernetes/serviceapp.yaml").path,
            deploy.appendingPathComponent("docker-compose.sentinel.yml").path,
        ])
        XCTAssertEqual(check.waitForExit(timeout: 30), 0, check.output)
        XCTAssertTrue(check.output.contains("sentinel ok"), check.output)
    }
}
