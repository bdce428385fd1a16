import Foundation

/// Runs the built `signup-rpc` as a child process, the way frontends do.
struct Subprocess {
    struct Output {
        var stdout: String
        var stderr: String
        var status: Int32
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The `signup-rpc` built next to the test bundle.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SIGNUP_RPC_BINARY"] { return URL(fileURLWithPath: path) }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Linux the test bundle is a file in the products directory; elsewhere it may be a folder.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("signup-rpc").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("signup-rpc")
    }

    /// The environment for children: a server ends by `exit()` with its state still alive, which
    /// LeakSanitizer (under `swift test --sanitize=address`) would report as leaks of everything
    /// Swift's globals hold; the fuzzer, which tears a server down per input, is the leak check.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "detect_leaks=0"
        return environment
    }

    /// The package's root folder, for Examples/ and protocol.md.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Feeds `input` to the process (from another thread, so a full pipe cannot deadlock) and
    /// collects everything it writes until it exits.
    static func run(_ arguments: [String], input: Data, program: String = "signup-rpc") throws -> Output {
        let process = Process()
        process.executableURL = executable.deletingLastPathComponent().appendingPathComponent(program)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        // A process that ends before reading its input (a usage error) must not end this one by
        // SIGPIPE: the write then fails, and is ignored.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        process.killIfStillRunning()
        let writer = stdin.fileHandleForWriting
        let feeding = Thread {
            try? writer.write(contentsOf: input)
            try? writer.close()
        }
        feeding.start()
        let errorCollector = ErrorCollector(handle: stderr.fileHandleForReading)
        errorCollector.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(stdout: String(decoding: out, as: UTF8.self), stderr: withoutMachineNotes(errorCollector.wait()),
                      status: process.terminationStatus)
    }

    /// The start-up lines that name a rule this machine cannot run (one without ICU): they depend on the machine, not on the input, so a test that compares
    /// stderr compares what is left; `SecureSignupTests` asserts the lines themselves.
    static let machineNotePrefix = "signup-rpc: warning: form kind "

    static func withoutMachineNotes(_ stderr: String) -> String {
        guard stderr.contains(machineNotePrefix) else { return stderr }
        return stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(machineNotePrefix) }.joined(separator: "\n")
    }

    static func run(_ arguments: [String], input: String, program: String = "signup-rpc") throws -> Output {
        try run(arguments, input: Data(input.utf8), program: program)
    }
}

/// Drains stderr on its own thread so a chatty child cannot block on a full pipe.
private final class ErrorCollector: @unchecked Sendable {
    private let handle: FileHandle
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(handle: FileHandle) { self.handle = handle }

    func start() {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
