import ServiceApp

/// The `ServiceApp` executable. Everything it runs lives in the ServiceApp library, so the tests,
/// the fuzzers and the benchmarks reach the same code.
@main
enum ServiceAppMain {
    static func main() async {
        await ServiceCommand.runAsExecutable()
    }
}
