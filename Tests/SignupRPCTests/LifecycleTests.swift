import Foundation
import Testing
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport
#if canImport(Glibc)
import Glibc
#endif

/// How the process ends: shutdown with work in flight, signals, a vanished client, EPIPE.
@Suite struct LifecycleTests {
    private static let filledForm = #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"f","values":{"username":"alice","password":"secret","repeatedPassword":"secret"}}}"#

    /// A directory file whose registrations take a second of real time.
    private func slowRegistrations(_ folder: TemporaryDirectory) throws -> String {
        let path = folder.path("directory.json")
        try Data(#"{"registrationLatencyMs":1000}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func shutdownInVirtualTimeLetsTheSubmissionFinishFirst() {
        let harness = ServerHarness { $0.debounce = .zero }
        _ = harness.send(Self.filledForm)
        _ = harness.send(#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f","at":500}}"#)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"alice"},"at":1500}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":null}"#,
        ])
    }

    @Test func shutdownInRealTimeAnswersAfterTheSubmissionAndHoldsLaterMessages() throws {
        let folder = try TemporaryDirectory()
        let child = try InteractiveProcess(["--debounce-ms", "0", "--directory", try slowRegistrations(folder)])
        child.send([Self.filledForm])
        _ = child.readLines { $0.contains(#""enabled":true"#) }
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.snapshot","params":{"form":"f"}}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ])
        var lines: [String] = []
        while let line = child.readLine() { lines.append(line) }
        #expect(child.wait() == 0)
        let kinds = lines.map { line -> String in
            if line.contains(#""id":1,"#) { return "submit" }
            if line.contains(#""id":2,"#) { return "shutdown" }
            if line.contains(#""id":3,"#) { return line.contains("-32003") ? "refused" : "served" }
            if line.contains("submissionChanged") { return line.contains("succeeded") ? "succeeded" : "submitting" }
            return "other"
        }.filter { $0 != "other" }
        #expect(kinds == ["submitting", "submit", "succeeded", "shutdown", "refused"])
    }

    @Test func sigtermDuringASubmissionFinishesItAndExitsZero() throws {
        let folder = try TemporaryDirectory()
        let child = try InteractiveProcess(["--debounce-ms", "0", "--directory", try slowRegistrations(folder)])
        child.send([Self.filledForm])
        _ = child.readLines { $0.contains(#""enabled":true"#) }
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f"}}"#])
        _ = child.readLines { $0.contains(#""id":1,"result""#) }
        kill(child.pid, SIGTERM)
        var rest: [String] = []
        while let line = child.readLine() { rest.append(line) }
        #expect(child.wait() == 0)
        #expect(rest.contains { $0.contains(#""state":"succeeded","account":{"username":"alice"}"#) })
    }

    @Test func sigintWithNothingInFlightExitsZeroAtOnce() throws {
        let child = try InteractiveProcess(["--clock", "virtual"])
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":1}}"#])
        #expect(child.readLine() == #"{"jsonrpc":"2.0","id":1,"result":{"now":1}}"#)
        kill(child.pid, SIGINT)
        #expect(child.wait() == 0)
    }

    @Test(arguments: [true, false])
    func theServerExitsWhenItsClientProcessDies(viaInitialize: Bool) throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sleep")
        parent.arguments = ["600"]
        try parent.run()
        parent.killIfStillRunning()
        let pid = parent.processIdentifier
        let child = try InteractiveProcess(viaInitialize ? [] : ["--parent-pid", "\(pid)"])
        if viaInitialize {
            child.send([#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":\#(pid)}}"#])
            _ = child.readLine()
        }
        // End only the process this test started, by its pid.
        kill(pid, SIGKILL)
        parent.waitUntilExit()
        let exited = DispatchSemaphore(value: 0)
        let status = LockedValue<Int32>()
        Thread {
            status.set(child.wait())
            exited.signal()
        }.start()
        // A generous watchdog so a broken build fails instead of hanging; no speed is asserted.
        if exited.wait(timeout: .now() + 60) == .timedOut {
            kill(child.pid, SIGKILL)
            Issue.record("signup-rpc did not exit after its client process died")
            return
        }
        #expect(status.get() == 0)
    }

    @Test func aClientThatClosesStdoutEndsTheServerQuietly() throws {
        let lines = (0..<2000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"form.snapshot"}"# }.joined(separator: "\n") + "\n"
        let ended = try runWithStdoutClosed([], input: lines, closingStdin: true)
        #expect(ended.status == 0)
        #expect(!ended.stderr.contains("crash") && !ended.stderr.contains("Fatal"))
    }

    @Test func aRecordingOfASessionWhoseClientClosedStdoutEndsWithItAndReplays() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("gone.jsonl")
        // Names checked against the backend, a submission, and many keystrokes after them.
        var lines = [Self.filledForm, #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f","at":400}}"#]
        for index in 0..<3000 {
            lines.append(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"g\#(index % 50)","field":"username","value":"name\#(index)","at":\#(500 + index)}}"#)
        }
        // Stdin stays open, so the session ends only because stdout is closed.
        let ended = try runWithStdoutClosed(["--clock", "virtual", "--record", recording], input: lines.joined(separator: "\n") + "\n",
                                            closingStdin: false)
        #expect(ended.status == 0)
        let records = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        #expect(records.last?.hasSuffix(#","end":"clientGone"}"#) == true)
        #expect(records.contains { $0.contains(#""out":"#) })
        // Every message the server sent is there, the ones the client never got too: the replay
        // of what it took produces exactly the messages recorded.
        try expectReplaysAsRecorded(recording)
    }

    @Test func aVirtualSessionEndedByItsClientGoingFinishesItsSubmissionAndReplaysSo() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("gone.jsonl")
        let submit = #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f","at":3000}}"#
        let ended = try runWithStdoutClosed(["--clock", "virtual", "--record", recording],
                                            input: Self.filledForm + "\n" + submit + "\n", closingStdin: false)
        #expect(ended.status == 0)
        let records = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        #expect(records.contains { $0.contains(#""state":"succeeded","account":{"username":"alice"}"#) })
        #expect(records.last?.hasSuffix(#","end":"clientGone"}"#) == true)
        // The replay runs the clock to the recorded end, as the session did until the submission had finished.
        try expectReplaysAsRecorded(recording)
    }

    private func expectReplaysAsRecorded(_ recording: String) throws {
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0)
        #expect(replay.stderr.contains("the replay matches the recording"))
    }

    @Test func aRecordedSessionThatAnswersAndExitsInOneReadEndsAndRecordsIt() throws {
        // The answers are sent in the same work as the exit, which waits for the recording to be
        // complete, which waits for the answers to be written: the writer must be woken at once.
        let folder = try TemporaryDirectory()
        let recording = folder.path("exit.jsonl")
        let child = try InteractiveProcess(["--clock", "virtual", "--record", recording])
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.snapshot"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ])
        #expect(child.wait(atMost: 60) == 0)
        let records = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(Array(records) == [
            #"{"t":0,"in":{"jsonrpc":"2.0","id":1,"method":"shutdown"}}"#,
            #"{"t":0,"out":{"jsonrpc":"2.0","id":1,"result":null}}"#,
            #"{"t":0,"in":{"jsonrpc":"2.0","id":2,"method":"form.snapshot"}}"#,
            #"{"t":0,"out":{"jsonrpc":"2.0","id":2,"error":{"code":-32003,"message":"The server is shutting down; only exit is accepted"}}}"#,
            #"{"t":0,"in":{"jsonrpc":"2.0","method":"exit"}}"#,
            #"{"t":0,"end":"exit"}"#,
        ])
    }

    @Test func aSubmissionInFlightWhenTheClientClosesStdoutFinishesAndIsRecorded() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("gone.jsonl")
        let child = try InteractiveProcess(
            ["--debounce-ms", "0", "--directory", try slowRegistrations(folder), "--record", recording])
        child.send([Self.filledForm])
        _ = child.readLines { $0.contains(#""enabled":true"#) }
        // Stdin stays open: the session ends because stdout is closed, as the submission's answer is written.
        child.closeOutput()
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f"}}"#])
        #expect(child.wait(atMost: 60) == 0)
        let records = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        let kinds = records.dropFirst().compactMap { record -> String? in
            if record.contains(#""id":1,"result":{"form":"f","accepted":true}"#) { return "accepted" }
            if record.contains(#""call":"register","username":"alice""#) { return "asked" }
            if record.contains(#""registration":"registered""#) { return "registered" }
            if record.contains(#""state":"succeeded","account":{"username":"alice"}"#) { return "succeeded" }
            if record.contains(#""end":"#) { return String(record.split(separator: ",").last ?? "") }
            return nil
        }
        #expect(kinds == ["asked", "accepted", "registered", "succeeded", #""end":"clientGone"}"#])
    }

    @Test(arguments: [[], ["--clock", "virtual"]])
    func aClientThatReadsNothingCannotKeepSigtermFromEndingTheServer(clock: [String]) throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("stuck.jsonl")
        let child = try InteractiveProcess(clock + ["--record", recording])
        // Far more answers than a pipe holds, none of them read.
        let flood = Data(String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"form.snapshot"}"# + "\n", count: 20_000).utf8)
        Thread { child.send(raw: flood) }.start()
        // Generous bound; no speed is asserted: wait until the pipe is full, so the writer is stuck.
        let deadline = Date().addingTimeInterval(60)
        while child.unreadOutputBytes < 60_000, Date() < deadline { usleep(10_000) }
        #expect(child.unreadOutputBytes >= 60_000)
        kill(child.pid, SIGTERM)
        // It gives up on the client once it has taken nothing for the drain timeout (10 s).
        #expect(child.wait(atMost: 60) == 0)
        let records = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        #expect(records.last?.hasSuffix(#","end":"signal"}"#) == true)
        #expect(records.contains { $0.contains(#""out":{"jsonrpc":"2.0","id":1,"result""#) })
    }

    /// Runs `signup-rpc` with `arguments` whose stdout nobody reads (closed before it starts
    /// writing), feeding it `input`, and waits for it to exit (a generous watchdog, no speed asserted).
    private func runWithStdoutClosed(_ arguments: [String], input: String, closingStdin: Bool) throws -> (status: Int32?, stderr: String) {
        let process = Process()
        process.executableURL = Subprocess.executable
        process.arguments = arguments
        process.environment = Subprocess.environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.killIfStillRunning()
        try stdout.fileHandleForReading.close()
        signal(SIGPIPE, SIG_IGN)
        let writer = stdin.fileHandleForWriting
        Thread {
            try? writer.write(contentsOf: Data(input.utf8))
            if closingStdin { try? writer.close() }
        }.start()
        let errors = LockedValue<Data>()
        let exited = DispatchSemaphore(value: 0)
        Thread {
            errors.set(stderr.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            exited.signal()
        }.start()
        guard exited.wait(timeout: .now() + 60) == .success else {
            // End only the process this test started, by its pid.
            kill(process.processIdentifier, SIGKILL)
            Issue.record("signup-rpc did not exit after its client closed stdout")
            return (nil, "")
        }
        if !closingStdin { try? writer.close() }
        #expect(process.terminationReason == .exit)
        return (process.terminationStatus, String(decoding: errors.get() ?? Data(), as: UTF8.self))
    }
}

/// A value set on one thread and read on another.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value? { lock.withLock { value } }
    func update(_ body: (inout Value?) -> Void) { lock.withLock { body(&value) } }
}
