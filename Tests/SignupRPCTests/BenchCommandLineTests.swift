import Foundation
import Testing

/// `signup-bench` answers for its command line before it measures anything: `--help` and a
/// mistyped flag used to start the whole benchmark.
@Suite struct BenchCommandLineTests {
    private func bench(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Subprocess.executable.deletingLastPathComponent().appendingPathComponent("signup-bench")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.killIfStillRunning()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test func helpPrintsUsageAndExitsZero() throws {
        let run = try bench(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("""
            usage: signup-bench [--quick] [--runs N] [--rpc PATH] [--baseline PATH] [--listen-baseline PATH]
                                [--only LIST] [--unpinned] [--help]

            """))
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: [
        (["--frobnicate"], "signup-bench: unknown argument '--frobnicate'"),
        (["--runs"], "signup-bench: --runs needs a value"),
        (["--runs", "0"], "signup-bench: --runs takes a whole number of 1 or more"),
        (["--quick", "extra"], "signup-bench: unknown argument 'extra'"),
        (["--unpinned", "extra"], "signup-bench: unknown argument 'extra'"),
        (["--baseline"], "signup-bench: --baseline needs a value"),
        (["--baseline", "/nonexistent/signup-rpc"], "signup-bench: --baseline: /nonexistent/signup-rpc is not an executable"),
        (["--listen-baseline", "/nonexistent/signup-rpc"], "signup-bench: --listen-baseline: /nonexistent/signup-rpc is not an executable"),
    ])
    func aBadCommandLineIsAUsageErrorAndMeasuresNothing(arguments: [String], message: String) throws {
        let run = try bench(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(message + "\n\nusage: signup-bench"))
    }
}
