#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import Synchronization

/// The one writer of a connection's messages, each whole, followed by `\n` (or framed as LSP), so
/// two messages can never interleave and a client that stops reading stalls only itself, never
/// the sender: a thread of its own that blocks in `write(2)` (stdio), or, on a polled socket
/// (`--listen`), the poller's thread whenever the socket has room, what it could not take yet
/// kept in an outbox. What waits is held by an `OutgoingQueue`; messages may also come unencoded
/// (`DeferredOutput`), encoded here as they are written.
package final class ConnectionWriter: Sendable {
    /// Above this many waiting bytes, the connection stops reading until the queue drains.
    package static let highWater = 4 << 20
    package static let lowWater = 1 << 20

    package let queue: OutgoingQueue
    let fd: Int32
    /// Whether a sender's small messages are written by the sender when the writer is idle.
    package let writesDirectlyWhenIdle: Bool
    /// Set once a write finds the client gone: from then on messages are taken and mirrored as
    /// before but not written, so that everything waiting on the writer still goes on while the
    /// connection's owner ends it. Written by whichever thread writes (the writer, or a sender
    /// writing directly with the writer's claim), hence atomic.
    let isClientGone = Atomic<Bool>(false)
    /// Runs of messages written so far, for `flush` to tell a slow client from one that reads nothing.
    private let runsWritten = Atomic<Int>(0)
    /// What `whenStopped` was given: run on the writer thread as it ends, after `close()`.
    private let stoppedAction = Mutex<(@Sendable () -> Void)?>(nil)
    /// What `whenClientGone` was given, taken out when it runs, so it runs once.
    private let clientGoneAction = Mutex<(@Sendable () -> Void)?>(nil)
    /// One message per line, or each with LSP's `Content-Length` header instead of its newline.
    private let framing: FramingChoice
    /// The connection's one mirror of what it writes: every run of whole lines, before it is
    /// written (after the client has gone too), on the thread that writes it, with what its
    /// encoder said of its lines.
    private let mirror: (@Sendable (UnsafeRawBufferPointer, LineScreening) -> Void)?
    /// The polled socket written on the poller's thread, or nil for a thread of its own.
    let socket: PolledSocket?
    /// On a polled socket, what it has not taken yet; its lock is held for every write to it,
    /// so writes by a sender and by the poller never interleave.
    let outbox = Mutex(Outbox())
    /// Conflating, field events are conflated while more than `lowWater` bytes wait; otherwise
    /// nothing is dropped and messages may be deferred. Writing directly when idle, a small
    /// message that finds nothing waiting is written at once by its sender when the descriptor
    /// can take it, sparing the writer thread's wake-up. `deferWake` runs a wake-up later on the
    /// sender's executor (see `OutgoingQueue`). Given a `socket`, the writer is its poller's
    /// thread; otherwise `fd` is written on a thread of its own.
    package init(fd: Int32, polledBy socket: PolledSocket? = nil, conflates: Bool, writesDirectlyWhenIdle: Bool,
                 framing: FramingChoice, mirror: (@Sendable (UnsafeRawBufferPointer, LineScreening) -> Void)? = nil,
                 deferWake: (@Sendable (@escaping @Sendable () -> Void) -> Void)?) {
        self.fd = fd
        self.socket = socket
        self.framing = framing
        self.mirror = mirror
        self.writesDirectlyWhenIdle = writesDirectlyWhenIdle
        queue = OutgoingQueue(conflationThreshold: conflates ? Self.lowWater : nil, deferWake: deferWake)
        if let socket {
            queue.wakesWriter { socket.watchWriting(true) }
            socket.whenWritable { [self] in writeWhatWaits() }
            return
        }
        let thread = Thread { [self] in
            run()
            hasStopped()
        }
        thread.name = "signup-rpc.stdout"
        thread.start()
    }

    /// Writes `message` at once when the writer is idle and the descriptor can take it, or queues it.
    package func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        let isWritten = writesDirectlyWhenIdle && message.count < Self.atomicWriteSize && writeIfIdle {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: message.count + 1) { line in
                _ = line.initialize(from: message)
                line[message.count] = 0x0A
                return write(UnsafeRawBufferPointer(line))
            }
        }
        if !isWritten { queue.enqueue(message, key: conflationKey()) }
    }

    /// Whole messages, each followed by `\n`, with where each ends (after its newline) and its
    /// conflation key: written in one `write(2)` when they fit one and the writer is idle,
    /// otherwise queued one by one, in order, as `send` would have queued them.
    package func send(lines: UnsafeRawBufferPointer, ending messages: [(end: Int, key: ConflationKey?)]) {
        if writesDirectlyWhenIdle, lines.count <= Self.atomicWriteSize, writeIfIdle({ write(lines) }) { return }
        var start = 0
        for (end, key) in messages {
            queue.enqueue(UnsafeRawBufferPointer(rebasing: lines[start..<(end - 1)]), key: key)
            start = end
        }
    }

    /// Runs `writeNow` (which writes and says whether the client took it) when nothing waits, nothing
    /// is being written and the descriptor can take more, sparing the writer thread's wake-up;
    /// whether it ran.
    private func writeIfIdle(_ writeNow: () -> Written) -> Bool {
        guard queue.claimIdleWriter() else { return false }
        // A polled socket takes what it has room for, and its outbox keeps the rest.
        guard socket != nil || canWriteWithoutBlocking() else {
            queue.releaseClaim()
            return false
        }
        switch writeNow() {
        case .all:
            queue.didWrite()
        case .clientGone:
            queue.didWrite()
            clientHasGone()
        case .restWaiting:
            // The claim passes to the poller's thread, which gives it back once the rest is written.
            outbox.withLock { $0.holdsSendersClaim = true }
            socket?.watchWriting(true)
        }
        return true
    }

    /// Whether messages may be deferred: only where nothing is conflated.
    package var takesDeferredOutput: Bool { queue.takesDeferredOutput }

    /// Keeps messages for the writer thread to encode, after everything sent before them.
    package func send(deferred output: any DeferredOutput) {
        queue.enqueue(deferred: output)
    }

    /// Wakes the writer now for what waits, rather than after the sender's current work.
    package func wakeNow() {
        queue.wakeWriterNow()
    }

    /// Runs `action` once no more than `limit` bytes wait to be written.
    package func whenDrained(below limit: Int, _ action: @escaping @Sendable () -> Void) {
        queue.whenDrained(below: limit, action)
    }

    /// Runs `action` on the writer thread as it ends, after `close()`: from then on nothing writes
    /// to the descriptor, which its owner may close. Set before `close()`.
    package func whenStopped(_ action: @escaping @Sendable () -> Void) {
        stoppedAction.withLock { $0 = action }
    }

    /// The writer has written everything after `close()`: runs what `whenStopped` was given, once.
    func hasStopped() {
        stoppedAction.withLock { $0.take() }?()
    }

    /// Writes what was sent so far, then ends the writer thread. A message sent after this is dropped.
    package func close() {
        queue.close()
    }

    /// POSIX makes pipe writes of up to PIPE_BUF bytes atomic, and Linux reports a pipe writable
    /// only with a page (4096 bytes, its PIPE_BUF) free: a message and its newline below that fit.
    private static let atomicWriteSize = 4096

    private func canWriteWithoutBlocking() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLOUT) != 0
    }

    /// Blocks until everything sent so far is written (or the client has gone), or until the
    /// client has taken nothing for `stall`; says whether it was all written.
    package func flush(givingUpAfter stall: Duration) -> Bool {
        let seconds = Double(stall.components.seconds) + Double(stall.components.attoseconds) / 1e18
        var written = runsWritten.load(ordering: .relaxed)
        while !queue.waitUntilWritten(before: Date(timeIntervalSinceNow: seconds)) {
            let now = runsWritten.load(ordering: .relaxed)
            if now == written { return false }
            written = now
        }
        return true
    }

    private func run() {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(OutgoingBatch.gatheredRunBytes)
        while let batch = queue.takeAll() {
            batch.forEachRun(gatheringIn: &scratch) { run, screening in
                if write(run, screening: screening) == .clientGone { clientHasGone() }
            }
            queue.didWrite(returning: batch.buffer)
        }
    }

    /// Runs `action` once, on the thread that finds it, when a write finds that the client has
    /// closed its end (at once if one already has). Messages are no longer written from then on.
    package func whenClientGone(_ action: @escaping @Sendable () -> Void) {
        clientGoneAction.withLock { $0 = action }
        if isClientGone.load(ordering: .acquiring) { runClientGoneAction() }
    }

    /// Stops writing, and says so.
    func clientHasGone() {
        isClientGone.store(true, ordering: .releasing)
        runClientGoneAction()
    }

    private func runClientGoneAction() {
        clientGoneAction.withLock { $0.take() }?()
    }

    /// Writes whole messages, each followed by `\n`, in the framing in use, and says how it went
    /// (nothing is written once the client is known to have gone). Every run is mirrored first.
    func write(_ bytes: UnsafeRawBufferPointer, screening: LineScreening = .needed) -> Written {
        mirror?(bytes, screening)
        guard !isClientGone.load(ordering: .acquiring) else { return .all }
        defer { runsWritten.add(1, ordering: .relaxed) }
        guard framing.current == .lsp else { return put(bytes) }
        // A message never holds a raw newline (JSON escapes it), so the newlines cut the messages.
        // The run is framed whole into one buffer and written at once, not a write per message.
        var framed: [UInt8] = []
        framed.reserveCapacity(bytes.count + bytes.count / 4 + 32)
        var start = 0
        while start < bytes.count {
            let end = bytes.firstLineFeed(from: start) ?? bytes.count
            framed.append(contentsOf: Self.contentLength)
            Self.appendDecimal(end - start, to: &framed)
            framed.append(contentsOf: Self.headerEnd)
            framed.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end + 1
        }
        return framed.withUnsafeBytes { put($0) }
    }

    private static let contentLength = Array("Content-Length: ".utf8)
    private static let headerEnd: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    /// Appends the digits of `value`, which is not negative.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }
}
