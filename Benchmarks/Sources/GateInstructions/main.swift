import CCallgrind
import GateCases
#if canImport(Glibc)
import Glibc
#endif

// Runs one case of the catalog with callgrind's collection on around its operations only, for
// scripts/bench-check.sh: `valgrind --tool=callgrind --collect-atstart=no GateInstructions CASE N`
// counts the instructions of N operations (after one uncounted batch that runs the case's one-time
// work: lazy globals, generic metadata). Prints the number of operations counted.
// `GateInstructions --list` prints the gated cases' names, one a line.
// A plain synchronous program: valgrind 3.19 cannot run package-benchmark's async runner.

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--list" {
    for gateCase in GateCase.all where gateCase.gated { print(gateCase.name) }
} else if arguments.count == 2, let gateCase = GateCase.all.first(where: { $0.name == arguments.first }),
          let operations = Int(arguments.last!), operations > 0 {
    let operation = gateCase.make()
    var checksum = operation.run(operations)
    ccallgrind_toggle_collect()
    checksum &+= operation.run(operations)
    ccallgrind_toggle_collect()
    print("\(operations) \(checksum)")
} else {
    print("usage: GateInstructions CASE OPERATIONS | --list")
    exit(2)
}
