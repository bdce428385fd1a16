import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Started by a person at a terminal, the server says on stderr what it expects and how to leave;
/// piped to by a program, it says nothing.
@Suite struct TerminalTests {
    static let greeting = """
        signup-rpc 0.1.0: reading JSON-RPC 2.0 messages from stdin, one per line (see protocol.md).
        Try: {"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}
        End input with Ctrl-D; stop with Ctrl-C. signup-rpc --help lists the options.

        """

    @Test func aTerminalOnStdinIsGreetedOnStderrAndCtrlDEndsTheSession() throws {
        let (master, terminal) = try #require(Self.openTerminal())
        defer { close(master) }
        let process = Process()
        process.executableURL = Subprocess.executable
        process.arguments = ["--clock", "virtual"]
        process.environment = Subprocess.environment
        process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.killIfStillRunning()
        // Typed at the terminal: a line, then Ctrl-D at the start of the next, which is end of input.
        let typed = Array(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":2}}"#.utf8) + [0x0A, 0x04]
        #expect(write(master, typed, typed.count) == typed.count)
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(Subprocess.withoutMachineNotes(stderr) == Self.greeting)
        #expect(stdout == #"{"jsonrpc":"2.0","id":1,"result":{"now":2}}"# + "\n")
        #expect(process.terminationStatus == 0)
    }

    /// A pseudo-terminal: its controlling side and the terminal a child reads as stdin. Through
    /// /dev/ptmx and Linux's ioctls, as glibc's posix_openpt family is not visible to Swift here.
    private static func openTerminal() -> (master: Int32, terminal: Int32)? {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430  // TIOCSPTLCK, TIOCGPTN
        guard ioctl(master, setLock, &unlock) == 0, ioctl(master, getNumber, &number) == 0 else {
            close(master)
            return nil
        }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(master)
            return nil
        }
        return (master, terminal)
    }

    @Test func aPipeOnStdinHearsNoGreeting() throws {
        let output = try Subprocess.run(["--clock", "virtual"], input: #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":0}}"# + "\n")
        #expect(output.stderr.isEmpty)
        #expect(output.lines == [#"{"jsonrpc":"2.0","id":1,"result":{"now":0}}"#])
    }
}
