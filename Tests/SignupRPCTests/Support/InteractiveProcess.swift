import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `signup-rpc` as a live child: write lines, read lines as they come, kill it by its pid.
/// Used from one test thread at a time (`wait` may run on a watchdog thread).
final class InteractiveProcess: LineReading, @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = LineBuffer()
    private var errorBuffer = LineBuffer()

    /// `environment` adds to the children's usual one.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        // A child that dies must make our writes fail with EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = Subprocess.executable
        process.arguments = arguments
        process.environment = Subprocess.environment.merging(environment) { $1 }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.killIfStillRunning()
    }

    var pid: Int32 { process.processIdentifier }

    /// Writes lines; returns false once the child has gone away.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        let data = Data(lines.map { $0 + "\n" }.joined().utf8)
        return (try? input.fileHandleForWriting.write(contentsOf: data)) != nil
    }

    /// Writes bytes as they are; returns false once the child has gone away.
    @discardableResult
    func send(raw data: Data) -> Bool {
        (try? input.fileHandleForWriting.write(contentsOf: data)) != nil
    }

    /// The next line of stdout, or nil at its end.
    func readLine() -> String? {
        buffer.nextLine { Self.read(output) }
    }

    /// What one read of `pipe` gives, or nil at its end.
    private static func read(_ pipe: Pipe) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = Glibc.read(pipe.fileHandleForReading.fileDescriptor, &chunk, chunk.count)
        return count > 0 ? Array(chunk[0..<count]) : nil
    }

    /// Everything left on stdout, to its end.
    func readToEnd() -> String {
        while let more = Self.read(output) { buffer.bytes += more }
        defer { buffer.bytes.removeAll() }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// How many bytes the child has written to stdout that have not been read.
    var unreadOutputBytes: Int {
        var count: Int32 = 0
        return ioctl(output.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Everything the child wrote to stderr, once it has ended (after what `readErrorLine` took),
    /// less the machine's start-up notes (`Subprocess.withoutMachineNotes`) unless `machineNotes`.
    func errorOutput(machineNotes: Bool = false) -> String {
        defer { errorBuffer.bytes.removeAll() }
        let text = String(decoding: errorBuffer.bytes + errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return machineNotes ? text : Subprocess.withoutMachineNotes(text)
    }

    /// The next line of stderr but the machine's start-up notes, or nil at its end.
    func readErrorLine() -> String? {
        while let line = errorBuffer.nextLine(reading: { Self.read(errors) }) {
            if !line.hasPrefix(Subprocess.machineNotePrefix) { return line }
        }
        return nil
    }

    /// Stops reading the child's stdout for good: its next write fails with EPIPE.
    func closeOutput() {
        try? output.fileHandleForReading.close()
    }

    /// Sends SIGKILL to this child (only to the process this test started).
    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func wait() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The exit status once the child has ended, or nil if it still runs after `seconds` (then
    /// it is killed, so a hang fails the test rather than stalling it). A child killed by a
    /// signal reports 128 plus the signal's number.
    func wait(atMost seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            guard Date() < deadline else {
                killHard()
                return nil
            }
            usleep(1000)
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Whether the child has blocked SIGTERM and SIGINT (read from /proc): from then on neither
    /// can be lost, whatever the child is doing.
    var hasBlockedTerminationSignals: Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
              let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        let wanted: UInt64 = (1 << (UInt64(SIGTERM) - 1)) | (1 << (UInt64(SIGINT) - 1))
        return mask & wanted == wanted
    }

    /// Waits (polling, at most `seconds`) until the child has blocked SIGTERM and SIGINT.
    func waitUntilTerminationSignalsAreBlocked(atMost seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !hasBlockedTerminationSignals {
            guard process.isRunning, Date() < deadline else { return false }
            usleep(100)
        }
        return true
    }

    /// Sends `signal` to this child (only to the process this test started).
    func send(signal: Int32) {
        kill(process.processIdentifier, signal)
    }
}
