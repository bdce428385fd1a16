import CProcessPlacement
import Foundation
import Testing

/// Figure 2 keeps `signup-bench` and the children it starts on one CPU: the mask must reach a
/// child started meanwhile, and the benchmark's own thread must get its whole mask back after.
@Suite struct OneCPUTests {
    /// `Cpus_allowed_list` of a /proc status file, such as "0-1".
    private func allowedCPUs(in status: String) -> String? {
        status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
            .map { $0.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces) }
    }

    private func childsAllowedCPUs() throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        process.arguments = ["/proc/self/status"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return allowedCPUs(in: text)
    }

    @Test func aChildStartedWhilePinnedRunsOnThatOneCPUAndTheThreadGetsItsMaskBack() throws {
        let before = allowedCPUs(in: try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
        let cpu = signup_pin_to_first_cpu()
        try #require(cpu >= 0)
        let pinnedThread = allowedCPUs(in: try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
        let child = try childsAllowedCPUs()
        #expect(signup_unpin() == 0)
        let after = allowedCPUs(in: try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
        #expect(pinnedThread == "\(cpu)")
        #expect(child == "\(cpu)")
        #expect(after == before)
        #expect(before?.hasPrefix("\(cpu)") == true)
    }
}
