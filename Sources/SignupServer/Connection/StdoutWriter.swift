#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import SignupCore
import Synchronization
import SignupProtocol
import SignupTransport

/// The one writer of protocol messages: a thread that writes each message whole, followed by
/// `\n`, so two messages can never interleave and a client that stops reading blocks only this
/// thread, never the event loop.
final class StdoutWriter: MessageSink, @unchecked Sendable {
    /// Above this many waiting bytes, the service stops reading stdin until the queue drains.
    static let highWater = 4 << 20
    static let lowWater = 1 << 20

    let queue: OutgoingQueue
    private let loop: EventLoop
    private let fd: Int32
    private let writesDirectlyWhenIdle: Bool
    /// Where a notification is encoded when the queue needs its bytes; used on the sender's thread only.
    private var scratch = JSONWriter(capacity: 1024)
    /// Notifications sent during the loop's current work, handed to the queue together at its
    /// end (or before any other message): one lock for them all rather than one each.
    /// Touched on the loop only.
    private var unsent = UnsentNotifications()
    /// What notifications carry in place of their field results. Touched on the loop only; the
    /// writer thread reads its `table`.
    private let fieldResults = EncodedFieldResults()
    private let fieldTable: EncodedFieldTable
    /// Set once a write finds the client gone: from then on messages are taken, traced and teed
    /// as before but not written, so that everything waiting on the writer still goes on while
    /// the loop ends the session. Written by whichever thread writes (the writer, or the loop
    /// writing directly with the writer's claim), hence atomic.
    private let isClientGone = Atomic<Bool>(false)
    /// Runs of messages written so far, for `flush` to tell a slow client from one that reads nothing.
    private let runsWritten = Atomic<Int>(0)
    /// What `whenStopped` was given: run on the writer thread as it ends, after `close()`.
    private let stoppedAction = Mutex<(@Sendable () -> Void)?>(nil)
    /// What `whenClientGone` was given, taken out when it runs, so it runs once.
    private let clientGoneAction = Mutex<(@Sendable () -> Void)?>(nil)
    /// One message per line, or each with LSP's `Content-Length` header instead of its newline.
    private let framing: FramingChoice
    private let tracer: Tracer?
    /// Where a recording takes the lines written, when it copies them (`OutputTee`).
    private let tee: OutputTee?

    /// With the real clock, where timeliness counts, field events are conflated while more than
    /// `lowWater` bytes wait, and a small message that finds nothing waiting is written at once by
    /// the sender when stdout can take it, sparing the writer thread's wake-up. With the virtual
    /// clock nothing is dropped, output is batched, and notifications are encoded by the writer
    /// thread, off the event loop. Other messages sent on `loop` wake the
    /// writer once that loop's current work is done.
    /// `tee`, given only where the clock has every message written in order, is handed every
    /// line before it is written.
    init(fd: Int32, clock: ClockMode, framing: FramingChoice = FramingChoice(.lines), tracer: Tracer? = nil, tee: OutputTee? = nil,
         loop: EventLoop) {
        precondition(tee == nil || clock.writesEveryMessageInOrder, "a tee sees every message written")
        self.tee = tee
        self.fd = fd
        self.framing = framing
        self.tracer = tracer
        self.loop = loop
        writesDirectlyWhenIdle = clock.writesDirectlyWhenIdle
        fieldTable = fieldResults.table
        queue = OutgoingQueue(conflationThreshold: clock.conflatesOutput ? Self.lowWater : nil, deferWake: { loop.execute($0) })
        let thread = Thread { [self] in
            run()
            stoppedAction.withLock { $0.take() }?()
        }
        thread.name = "signup-rpc.stdout"
        thread.start()
    }

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        handOverNotifications()
        if writesDirectlyWhenIdle, message.count < Self.atomicWriteSize, queue.claimIdleWriter() {
            if canWriteWithoutBlocking() {
                writeDirectly(message)
                return
            }
            queue.releaseClaim()
        }
        queue.enqueue(message, key: conflationKey())
    }

    /// A field's change is sent with its name and result from `fieldResults`, not its event:
    /// encoded once, and, for the writer to encode, holding no object both threads would count.
    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        // The update is moved out of the event, not copied: that retained its texts once more.
        let notification: FormNotification
        switch consume event {
        case .fieldChanged(let update):
            guard let entry = fieldResults.entry(for: update) else {
                notification = FormNotification(form: form, event: .fieldChanged(update), at: time, submit: submit)
                break
            }
            guard queue.takesUnencodedNotifications else {
                // Encoded now, on the loop, from the entry's members.
                scratch.removeAll()
                entry.members.withUnsafeBytes {
                    Notifications.writeFieldChanged(form: form, members: $0, version: update.version, at: time, to: &scratch)
                }
                return scratch.withBytes { send($0, conflationKey: ConflationKey(form: form, topic: entry.field)) }
            }
            notification = FormNotification(form: form, fieldResult: entry.number, version: update.version, at: time)
        case let other:
            notification = FormNotification(form: form, event: other, at: time, submit: submit)
        }
        guard queue.takesUnencodedNotifications else { return send(notification, encodingInto: &scratch) }
        keep(notification)
    }

    /// Keeps a notification for the writer to encode; on the loop only.
    @inline(__always)
    private func keep(_ notification: consuming FormNotification) {
        switch unsent.add(notification) {
        case .first: loop.execute { [self] in handOverNotifications() }
        case .full: handOverNotifications()
        case .more: break
        }
    }

    /// Hands the notifications sent so far to the queue; on the loop only.
    func handOverNotifications() {
        guard let batch = unsent.take() else { return }
        queue.enqueue(contentsOf: batch)
    }

    /// Hands everything sent so far to the writer and wakes it now, rather than after the loop's
    /// current work; on the loop only, before it waits on something that waits on the writer.
    func handOverEverything() {
        handOverNotifications()
        queue.wakeWriterNow()
    }

    /// Runs `action` once no more than `limit` bytes wait to be written; on the loop only.
    func whenDrained(below limit: Int, _ action: @escaping @Sendable () -> Void) {
        handOverNotifications()
        queue.whenDrained(below: limit, action)
    }

    /// Runs `action` on the writer thread as it ends, after `close()`: from then on nothing writes
    /// to the descriptor, which its owner may close. Set before `close()`.
    func whenStopped(_ action: @escaping @Sendable () -> Void) {
        stoppedAction.withLock { $0 = action }
    }

    /// Writes what was sent so far, then ends the writer thread; on the loop only. A message sent
    /// after this is dropped.
    func close() {
        handOverNotifications()
        queue.close()
    }

    /// POSIX makes pipe writes of up to PIPE_BUF bytes atomic, and Linux reports a pipe writable
    /// only with a page (4096 bytes, its PIPE_BUF) free: a message and its newline below that fit.
    private static let atomicWriteSize = 4096

    private func canWriteWithoutBlocking() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
    }

    private func writeDirectly(_ message: UnsafeRawBufferPointer) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: message.count + 1) { line in
            _ = line.initialize(from: message)
            line[message.count] = 0x0A
            return write(UnsafeRawBufferPointer(line))
        }
        queue.didWrite()
        if !written { clientHasGone() }
    }

    /// Blocks until everything sent so far is written (or the client has gone), or until the
    /// client has taken nothing for `stall`; says whether it was all written. On the loop only.
    func flush(givingUpAfter stall: TimeSpan) -> Bool {
        handOverNotifications()
        var written = runsWritten.load(ordering: .relaxed)
        while !queue.waitUntilWritten(before: Date(timeIntervalSinceNow: Double(stall.milliseconds) / 1000)) {
            let now = runsWritten.load(ordering: .relaxed)
            if now == written { return false }
            written = now
        }
        return true
    }

    private func run() {
        var scratch = JSONWriter(capacity: OutgoingBatch.encodedRunBytes + 4096)
        while let batch = queue.takeAll() {
            // Taken after the batch, the snapshot holds every field result its notifications name.
            let fields = batch.deferred.isEmpty ? nil : fieldTable.snapshot()
            // Every run is teed, the ones after a failed write too.
            batch.forEachRun(encodingInto: &scratch, fields: fields) { run in
                tee?.publish(run)
                if !write(run) { clientHasGone() }
            }
            queue.didWrite(returning: batch.buffer)
        }
    }

    /// Runs `action` once, on the thread that finds it, when a write finds that the client has
    /// closed stdout (at once if one already has). Messages are no longer written from then on.
    func whenClientGone(_ action: @escaping @Sendable () -> Void) {
        clientGoneAction.withLock { $0 = action }
        if isClientGone.load(ordering: .acquiring) { runClientGoneAction() }
    }

    /// Stops writing, and says so.
    private func clientHasGone() {
        isClientGone.store(true, ordering: .releasing)
        runClientGoneAction()
    }

    private func runClientGoneAction() {
        clientGoneAction.withLock { $0.take() }?()
    }

    /// Writes whole messages, each followed by `\n`, in the framing in use; false when the
    /// client has gone (and nothing once it is known to have).
    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        tracer?.traceOut(bytes)
        guard !isClientGone.load(ordering: .acquiring) else { return true }
        defer { runsWritten.add(1, ordering: .relaxed) }
        guard framing.current == .lsp else { return writeAll(bytes, to: fd) }
        // A message never holds a raw newline (JSON escapes it), so the newlines cut the messages.
        // The run is framed whole into one buffer and written at once, not a write per message.
        var framed: [UInt8] = []
        framed.reserveCapacity(bytes.count + bytes.count / 4 + 32)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            framed.append(contentsOf: Self.contentLength)
            framed.append(contentsOf: String(end - start).utf8)
            framed.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
            framed.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
        }
        return framed.withUnsafeBytes { writeAll($0, to: fd) }
    }

    private static let contentLength = Array("Content-Length: ".utf8)

}
