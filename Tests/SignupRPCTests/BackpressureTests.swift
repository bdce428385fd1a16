import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport
import SignupCore

extension OutgoingQueue {
    fileprivate func enqueue(_ message: [UInt8], key: ConflationKey?) {
        message.withUnsafeBytes { enqueue($0, key: key) }
    }
}

@Suite struct OutgoingQueueTests {
    private func text(_ batch: OutgoingBatch?) -> [String] {
        (batch?.messages ?? []).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func belowTheThresholdNothingIsConflated() {
        let queue = OutgoingQueue(conflationThreshold: 100)
        let key = ConflationKey(group: "f", topic: "username")
        queue.enqueue(Array("a1".utf8), key: key)
        queue.enqueue(Array("r1".utf8), key: nil)
        queue.enqueue(Array("a2".utf8), key: key)
        #expect(text(queue.takeAll()) == ["a1", "r1", "a2"])
    }

    @Test func aboveTheThresholdTheNewestEventOfAKeyReplacesTheWaitingOneAtTheBack() {
        let queue = OutgoingQueue(conflationThreshold: 4)
        let username = ConflationKey(group: "f", topic: "username")
        let password = ConflationKey(group: "f", topic: "password")
        queue.enqueue(Array("u1".utf8), key: username)
        queue.enqueue(Array("p1".utf8), key: password)
        queue.enqueue(Array("r1".utf8), key: nil)
        queue.enqueue(Array("u2".utf8), key: username)
        queue.enqueue(Array("r2".utf8), key: nil)
        queue.enqueue(Array("u3".utf8), key: username)
        queue.enqueue(Array("s1".utf8), key: nil)
        #expect(text(queue.takeAll()) == ["p1", "r1", "r2", "u3", "s1"])
        #expect(queue.queuedBytes == 0)
    }

    @Test func theSpaceOfReplacedEventsIsFreedAndLaterReplacementsStillFindTheirEvents() {
        let queue = OutgoingQueue(conflationThreshold: 0)
        let a = ConflationKey(group: "f", topic: "a")
        let b = ConflationKey(group: "f", topic: "b")
        for index in 0..<1000 {
            queue.enqueue(Array("a\(index)".utf8), key: a)
            queue.enqueue(Array("b\(index)".utf8), key: b)
            if index.isMultiple(of: 100) { queue.enqueue(Array("r\(index)".utf8), key: nil) }
            // Replaced events never take more room than the live ones (plus the one just replaced).
            #expect(queue.bufferedBytes <= 2 * queue.queuedBytes + 6)
        }
        #expect(text(queue.takeAll()) == stride(from: 0, to: 1000, by: 100).map { "r\($0)" } + ["a999", "b999"])
    }

    @Test func withoutAThresholdNothingIsEverDropped() {
        let queue = OutgoingQueue(conflationThreshold: nil)
        let key = ConflationKey(group: "f", topic: "username")
        for index in 0..<1000 { queue.enqueue(Array("u\(index)".utf8), key: key) }
        #expect(queue.takeAll()?.messages.count == 1000)
    }

    private func notification(_ field: String, version: Int, at: Int64) -> FormNotification {
        let result = FieldResult(state: .ok, code: "\(field).ok", message: "fine \(version)")
        return FormNotification(
            form: "f1", event: .fieldChanged(FieldUpdate(field: field, result: result, version: version)), at: at,
            submit: .init(FormDefinition.signup.submit))
    }

    private func encoded(_ notification: FormNotification) -> String {
        var writer = JSONWriter()
        notification.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func notificationsLeftForTheWriterAreEncodedInOrderBetweenTheMessagesAroundThem() throws {
        let queue = OutgoingQueue(conflationThreshold: nil)
        let first = notification("username", version: 1, at: 5)
        let second = notification("password", version: 2, at: 7)
        queue.enqueue(Array("r1".utf8), key: nil)
        queue.enqueue(deferred: DeferredNotifications([first, second], fields: EncodedFieldTable()))
        queue.enqueue(Array("r2".utf8), key: nil)
        #expect(queue.queuedBytes == 6 + 2 * OutgoingQueue.deferredMessageBytes)
        let batch = try #require(queue.takeAll())
        var scratch: [UInt8] = []
        var runs: [String] = []
        batch.forEachRun(gatheringIn: &scratch) { run, _ in runs.append(String(decoding: run, as: UTF8.self)) }
        #expect(runs == ["r1\n" + encoded(first) + "\n" + encoded(second) + "\nr2\n"])
        #expect(encoded(first).hasPrefix(#"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f1","field":"username","state":"ok","code":"username.ok""#))
        #expect(queue.queuedBytes == 0)
    }

    @Test func runsSayWhetherTheirLinesNeedATracesScreeningAndAreGatheredOnlyWithLikeRuns() throws {
        let queue = OutgoingQueue(conflationThreshold: nil)
        let plain = notification("username", version: 1, at: 5)
        let token = FieldResult(state: .failed, code: "username.taken", params: ["token": "t-1", "secret": true], message: "taken")
        let naming = FormNotification(
            form: "f1", event: .fieldChanged(FieldUpdate(field: "username", result: token, version: 2)), at: 6,
            submit: .init(FormDefinition.signup.submit))
        let flagOnly = FieldResult(state: .ok, code: "username.ok", params: ["secret": true, "passwordHint": .null], message: "ok")
        let flagged = FormNotification(
            form: "f1", event: .fieldChanged(FieldUpdate(field: "username", result: flagOnly, version: 3)), at: 7,
            submit: .init(FormDefinition.signup.submit))
        queue.enqueue(Array("r1".utf8), key: nil)
        queue.enqueue(deferred: DeferredNotifications([plain, flagged, naming, plain], fields: EncodedFieldTable(), tellsScreening: true))
        queue.enqueue(deferred: DeferredNotifications([plain], fields: EncodedFieldTable()))
        let batch = try #require(queue.takeAll())
        var scratch: [UInt8] = []
        var runs: [(String, LineScreening)] = []
        batch.forEachRun(gatheringIn: &scratch) { run, screening in runs.append((String(decoding: run, as: UTF8.self), screening)) }
        // A value named for a secret needs screening; a flag or null so named does not. Output
        // that does not say (a response, notifications of an untraced session) needs it.
        #expect(runs.map(\.0) == ["r1\n", encoded(plain) + "\n" + encoded(flagged) + "\n", encoded(naming) + "\n",
                                   encoded(plain) + "\n", encoded(plain) + "\n"])
        #expect(runs.map(\.1) == [.needed, .notNeeded, .needed, .notNeeded, .needed])
    }

    @Test func aLongBatchOfNotificationsIsHandedOverInRunsOfWholeLines() throws {
        let queue = OutgoingQueue(conflationThreshold: nil)
        let notifications = (0..<2000).map { notification("username", version: $0, at: Int64($0)) }
        for (index, notification) in notifications.enumerated() {
            queue.enqueue(deferred: DeferredNotifications([notification], fields: EncodedFieldTable()))
            if index.isMultiple(of: 500) { queue.enqueue(Array("r\(index)".utf8), key: nil) }
        }
        let batch = try #require(queue.takeAll())
        var scratch: [UInt8] = []
        var runs: [[UInt8]] = []
        batch.forEachRun(gatheringIn: &scratch) { run, _ in runs.append(Array(run)) }
        #expect(runs.count > 1)
        #expect(runs.allSatisfy { $0.last == 0x0A && $0.count <= OutgoingBatch.gatheredRunBytes + 4096 })
        var expected: [String] = []
        for (index, notification) in notifications.enumerated() {
            expected.append(encoded(notification))
            if index.isMultiple(of: 500) { expected.append("r\(index)") }
        }
        #expect(String(decoding: runs.joined(), as: UTF8.self) == expected.joined(separator: "\n") + "\n")
    }

    @Test func messagesSentWhileTheWriterWaitsWakeItOnceWhenTheDeferredWakeRuns() throws {
        let wakes = LockedValue<[@Sendable () -> Void]>()
        wakes.set([])
        let queue = OutgoingQueue(conflationThreshold: nil, deferWake: { wake in wakes.update { $0?.append(wake) } })
        let taken = LockedValue<[String]>()
        let writer = Thread { taken.set(text(queue.takeAll())) }
        writer.start()
        while !queue.isWriterWaiting { sched_yield() }
        queue.enqueue(Array("a".utf8), key: nil)
        queue.enqueue(Array("b".utf8), key: nil)
        // Both messages wait behind a single deferred wake-up; the writer has not been woken.
        let pending = try #require(wakes.get())
        #expect(pending.count == 1)
        #expect(queue.isWriterWaiting)
        pending[0]()
        while taken.get() == nil { sched_yield() }
        #expect(taken.get() == ["a", "b"])
        // The wake-ups hold the queue, which holds the closure that keeps them.
        wakes.set([])
    }

    @Test func notificationsHandedOverWakeAWaitingWriterWithoutADeferredWake() {
        let wakes = LockedValue<[@Sendable () -> Void]>()
        wakes.set([])
        let queue = OutgoingQueue(conflationThreshold: nil, deferWake: { wake in wakes.update { $0?.append(wake) } })
        let taken = LockedValue<OutgoingBatch>()
        let writer = Thread { if let batch = queue.takeAll() { taken.set(batch) } }
        writer.start()
        while !queue.isWriterWaiting { sched_yield() }
        let handedOver = notification("username", version: 1, at: 3)
        queue.enqueue(deferred: DeferredNotifications([handedOver], fields: EncodedFieldTable()))
        while taken.get() == nil { sched_yield() }
        #expect(wakes.get()?.count == 0)
        var scratch: [UInt8] = []
        var runs: [String] = []
        taken.get()!.forEachRun(gatheringIn: &scratch) { run, _ in runs.append(String(decoding: run, as: UTF8.self)) }
        #expect(runs == [encoded(handedOver) + "\n"])
    }

    @Test func theWritersTurnCanBeClaimedOnlyWhileNothingWaitsOrIsBeingWritten() {
        let queue = OutgoingQueue(conflationThreshold: nil)
        #expect(queue.claimIdleWriter())
        #expect(!queue.claimIdleWriter())
        queue.releaseClaim()
        queue.enqueue(Array("a".utf8), key: nil)
        #expect(!queue.claimIdleWriter())
        #expect(text(queue.takeAll()) == ["a"])
        #expect(!queue.claimIdleWriter())
        queue.didWrite()
        #expect(queue.claimIdleWriter())
        queue.didWrite()
        queue.close()
        #expect(!queue.claimIdleWriter())
    }

    /// A write ending wakes only a thread waiting for it (a flush); the writer thread, waiting for
    /// messages, is left asleep. Both ways a claim ends wake the flush.
    @Test(arguments: [true, false])
    func aClaimedWriteEndingWakesAFlushWaitingForIt(written: Bool) {
        let queue = OutgoingQueue(conflationThreshold: nil)
        #expect(queue.claimIdleWriter())
        let flushed = LockedValue<Bool>()
        let flusher = Thread { flushed.set(queue.waitUntilWritten(before: Date(timeIntervalSinceNow: 30))) }
        flusher.start()
        while !queue.isWrittenWaiterWaiting { sched_yield() }
        #expect(flushed.get() == nil)
        if written { queue.didWrite() } else { queue.releaseClaim() }
        while flushed.get() == nil { sched_yield() }
        #expect(flushed.get() == true)
        #expect(!queue.isWrittenWaiterWaiting)
    }

    @Test func drainWaitersRunOnceTheQueueIsBelowTheirLimit() {
        let queue = OutgoingQueue(conflationThreshold: nil)
        let fired = LockedValue<Bool>()
        queue.enqueue([UInt8](repeating: 0x41, count: 50), key: nil)
        queue.whenDrained(below: 10) { fired.set(true) }
        #expect(fired.get() == nil)
        _ = queue.takeAll()
        queue.didWrite()
        #expect(fired.get() == true)
        let immediate = LockedValue<Bool>()
        queue.whenDrained(below: 10) { immediate.set(true) }
        #expect(immediate.get() == true)
    }
}

/// A client that writes a million edits and reads nothing until all are in: memory stays bounded
/// and the results it finally reads are right.
@Suite struct BackpressureTests {
    static let memoryBound = 64 << 20

    /// Under ThreadSanitizer or AddressSanitizer the child's memory is mostly shadow memory, so
    /// memory bounds are not measured there and the edit count is cut to keep the run practical.
    static let isSanitized = dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil

    /// In either framing: LSP's headers change how messages are cut, not how events are held back.
    @Test(arguments: ["lines", "lsp"])
    func aMillionEditsWhileTheClientIsNotReadingStayUnderTheMemoryBound(framing: String) throws {
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0"])
        let edits = Self.isSanitized ? 100_000 : 1_000_000
        func append(_ message: String, to input: inout Data) {
            if framing == "lsp" {
                input.append(contentsOf: Array("Content-Length: \(message.utf8.count)\r\n\r\n".utf8))
                input.append(contentsOf: Array(message.utf8))
            } else {
                input.append(contentsOf: Array(message.utf8))
                input.append(0x0A)
            }
        }
        // Alternate a too-short and an acceptable password so every edit changes the result.
        var input = Data()
        input.reserveCapacity(edits * 110)
        for index in 0..<edits {
            let value = index.isMultiple(of: 2) ? "abc" : "secret"
            append(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"password","value":"\#(value)"}}"#, to: &input)
        }
        append(#"{"jsonrpc":"2.0","id":"last","method":"form.snapshot"}"#, to: &input)
        // Every byte is written while nothing is read: the server took it all in without us.
        #expect(child.send(raw: input))

        // Read the peak memory while the server is still blocked on its full stdout pipe.
        let peak = try #require(Self.peakResidentBytes(of: child.pid))
        child.closeInput()
        let output = child.readToEnd()
        let lines = framing == "lsp" ? try LSPFramingTests.messages(in: output) : output.split(separator: "\n").map(String.init)
        #expect(child.wait() == 0)

        #expect(Self.isSanitized || peak < Self.memoryBound, "peak RSS \(peak >> 20) MiB")
        // Conflated, but the latest result of every field arrived, with truthful versions.
        #expect(lines.count < edits / 2)
        let lastPassword = try #require(lines.last { $0.contains(#""field":"password""#) && $0.contains("fieldChanged") })
        #expect(lastPassword.contains(#""state":"ok","code":"password.acceptable""#))
        #expect(lastPassword.contains(#""version":\#(edits),"#))
        let snapshot = try #require(lines.last)
        #expect(snapshot.hasPrefix(#"{"jsonrpc":"2.0","id":"last","result":{"form":"default","kind":"signup","version":\#(edits),"#))
        // Versions of one field never go down, even across conflation.
        let versions = lines.filter { $0.contains(#""field":"password""#) }.compactMap { line -> Int? in
            guard let range = line.range(of: #""version":"#) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(versions == versions.sorted())
    }

    @Test func aHundredMegabyteLineIsSkippedWithoutBeingBuffered() throws {
        let child = try InteractiveProcess(["--clock", "virtual"])
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        child.send(raw: Data(#"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"field":"username","value":""#.utf8))
        for _ in 0..<100 { child.send(raw: chunk) }
        child.send(raw: Data(#""}}"#.utf8 + [0x0A]))
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":1}}"#])
        #expect(child.readLine() == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Line longer than 1048576 bytes; it was skipped","data":{"limit":1048576}}}"#)
        #expect(child.readLine() == #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#)
        let peak = try #require(Self.peakResidentBytes(of: child.pid))
        child.closeInput()
        #expect(child.wait() == 0)
        // One line's limit (1 MiB) plus the program itself, nowhere near the 100 MB sent.
        #expect(Self.isSanitized || peak < 32 << 20, "peak RSS \(peak >> 20) MiB")
    }

    /// VmHWM from /proc: the most resident memory the process has used.
    static func peakResidentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}
