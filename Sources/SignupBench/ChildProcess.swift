import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process the benchmark started, with pipes to its stdin and from its stdout; stderr is
/// inherited. Only this benchmark's own children are ever waited for or signalled.
/// Unchecked: one thread may write its stdin while another reads its stdout; the two touch
/// disjoint descriptors and no shared state.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    let executable: String
    /// The write end of the child's stdin, or -1 when stdin is a file.
    private(set) var input: Int32
    /// The read end of the child's stdout.
    let output: Int32
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    /// Reused for every read, so timing a round trip does not time an allocation.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Starts `executable` with `arguments`; stdin comes from `inputFile` or, without one, a pipe.
    /// The pipes are close-on-exec, so a child started later does not inherit this one's ends
    /// (a second child holding the first one's stdin kept it from ever seeing end of input).
    init(_ executable: String, _ arguments: [String], inputFile: String? = nil) throws {
        self.executable = executable
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard Self.closeOnExecPipe(&fromChild) else { throw BenchError.system("pipe", errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inputFile {
            posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
        } else {
            guard Self.closeOnExecPipe(&toChild) else { throw BenchError.system("pipe", errno) }
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_addclose(&actions, toChild[1])
        }
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addclose(&actions, fromChild[0])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw BenchError.system("posix_spawn \(executable)", status) }
        pid = child
        if toChild[0] >= 0 { close(toChild[0]) }
        close(fromChild[1])
        input = toChild[1]
        output = fromChild[0]
    }

    /// A pipe whose two ends are closed in any program the process starts (dup2 onto a child's
    /// stdin or stdout makes a copy without the flag).
    private static func closeOnExecPipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        return ends.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
    }

    deinit {
        if input >= 0 { close(input) }
        close(output)
    }

    /// Writes all of `bytes` to the child's stdin.
    func send(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { send($0) }
    }

    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// The next line of output without its newline, or nil at the end of output.
    func readLine() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[bufferStart...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[bufferStart..<newline]
                bufferStart = newline + 1
                return line
            }
            if bufferStart > 0 {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
            let output = self.output
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads and discards output to its end; returns the number of bytes and of lines read.
    func drain() -> (bytes: Int, lines: Int) {
        var bytes = 0, lines = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = read(output, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += count
            lines += Self.newlines(in: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return (bytes, lines)
    }

    /// Counted with `memchr`, a vector at a time: the drain shares the machine's cores with the
    /// process measured, and counting byte by byte cost about as much CPU as the echo itself.
    private static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        guard var cursor = bytes.baseAddress else { return 0 }
        let end = cursor + bytes.count
        var lines = 0
        while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
            lines += 1
            cursor = UnsafeRawPointer(found) + 1
        }
        return lines
    }

    /// The CPU time (user and system) the child used, in seconds, once `wait()` has returned.
    private(set) var cpuSeconds: Double = 0

    /// Waits for the child to end and returns its exit status; notes its CPU time (`cpuSeconds`).
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        cpuSeconds = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        return (status >> 8) & 0xFF
    }

    /// The child's peak and current resident set, in bytes, from /proc.
    func memory() -> (peak: Int, current: Int) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func kilobytes(_ key: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return (kilobytes("VmHWM:") * 1024, kilobytes("VmRSS:") * 1024)
    }
}

enum BenchError: Error, CustomStringConvertible {
    case system(String, Int32)
    case missing(String)
    case unexpected(String)

    var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
        case .missing(let what): return what
        case .unexpected(let what): return what
        }
    }
}

/// Monotonic nanoseconds.
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}
