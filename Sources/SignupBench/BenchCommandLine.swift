import Foundation

/// signup-bench's command line: every argument a known flag or the value of one; anything else is
/// a usage error (exit 64), not a run.
enum BenchCommandLine {
    static let usage = """
        usage: signup-bench [--quick] [--runs N] [--rpc PATH] [--baseline PATH] [--listen-baseline PATH]
                            [--only LIST] [--unpinned] [--help]

          --quick       divide every size by 10: a smoke run, not a measurement
          --runs N      timed runs per figure, alternating with the baseline (median; default 5)
          --rpc PATH    measure this signup-rpc build instead of the one built beside signup-bench
          --baseline PATH
                        the fixed baseline build to run beside it in figure 1; by default the one
                        Scripts/build-baseline builds, when it is there
          --listen-baseline PATH
                        a signup-rpc build to run figure 9's ten thousand connections on too,
                        side by side (the figure takes about four minutes a build)
          --only LIST   measure only these figures, such as 1,3 (1 to 9)
          --unpinned    measure figure 2 wherever the scheduler puts each process, instead of
                        keeping the benchmark and its children on one CPU
          --help        print this and exit

        """

    static func usageError(_ problem: String) -> Never {
        FileHandle.standardError.write(Data("signup-bench: \(problem)\n\n\(usage)".utf8))
        exit(64)
    }

    /// `--quick`, `--unpinned`, and the value of each option given.
    static func parse(_ arguments: ArraySlice<String>) -> (quick: Bool, unpinned: Bool, values: [String: String]) {
        var quick = false
        var unpinned = false
        var values: [String: String] = [:]
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--quick" {
                quick = true
            } else if argument == "--unpinned" {
                unpinned = true
            } else if ["--runs", "--rpc", "--baseline", "--listen-baseline", "--only"].contains(argument) {
                guard let value = rest.popFirst(), !value.hasPrefix("--") else { usageError("\(argument) needs a value") }
                values[argument] = value
            } else {
                usageError("unknown argument '\(argument)'")
            }
        }
        return (quick, unpinned, values)
    }
}
