import Foundation

/// Messages waiting for the writer thread, each followed by `\n`, in one buffer. Once more than
/// `conflationThreshold` bytes wait (the client is not keeping up), a newer event with the same
/// conflation key replaces the older one still waiting (the newer goes to the back, so the order
/// of causes is kept), which bounds the queue by the number of live fields, not by how much
/// happens. Without a threshold nothing is ever dropped: output then depends on the input alone,
/// and messages may wait unencoded (`DeferredOutput`), for the writer thread to encode.
package final class OutgoingQueue: @unchecked Sendable {
    private let conflationThreshold: Int?
    private let condition = NSCondition()
    // The state below is guarded by `condition`.
    private var pending = OutgoingBuffer()
    /// The buffer the writer gave back, emptied, for the next batch.
    private var spare: OutgoingBuffer?
    /// Ranges of `pending` holding events that newer ones replaced.
    private var dropped: [Range<Int>] = []
    /// Messages the writer encodes, each run with the position in `pending` its text goes at.
    private var deferred: [(position: Int, output: any DeferredOutput)] = []
    /// Where the latest waiting event of each key is in `pending`.
    private var positions: [ConflationKey: Range<Int>] = [:]
    /// Bytes of the events still to be written (an estimate for each deferred message); the rest
    /// of `pending` is dropped ranges.
    private var bytes = 0
    private var isClosed = false
    private var isWriting = false
    private var writerIsWaiting = false
    private var wakeIsScheduled = false
    private let deferWake: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    private var drainWaiters: [(limit: Int, action: @Sendable () -> Void)] = []
    /// Threads in `waitUntilWritten`: only they wait for a write to end, so only they are woken
    /// when one does. The writer thread waits for messages, and a write ending brings none.
    private var writtenWaiters = 0
    /// How a writer without a thread is woken (`wakesWriter(by:)`); nil for a thread's.
    private var wake: (@Sendable () -> Void)?

    /// Above this many waiting bytes an idle writer is woken at once rather than deferred.
    package static let wakeAtOnceBytes = 64 << 10

    /// `deferWake`, when given, runs the writer's wake-up later on the producer's own executor
    /// (after the work that is sending now), so one wake-up (a futex call and a context switch)
    /// carries every message that work produced instead of one each. Without it each message
    /// that finds the writer idle wakes it at once.
    package init(conflationThreshold: Int?, deferWake: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil) {
        self.conflationThreshold = conflationThreshold
        self.deferWake = deferWake
    }

    /// Whether the writer is waiting for messages (for tests).
    package var isWriterWaiting: Bool { condition.withLock { writerIsWaiting } }

    /// Whether a thread waits in `waitUntilWritten` (for tests).
    package var isWrittenWaiterWaiting: Bool { condition.withLock { writtenWaiters > 0 } }

    /// Bytes waiting to be written, newlines included.
    package var queuedBytes: Int { condition.withLock { bytes } }

    /// Bytes held for writing, replaced events not yet freed included (for tests).
    package var bufferedBytes: Int { condition.withLock { pending.count } }

    /// Copies a message in; the key is asked for only when the queue conflates.
    package func enqueue(_ message: UnsafeRawBufferPointer, key: @autoclosure () -> ConflationKey?) {
        condition.withLock {
            let key = conflationThreshold == nil ? nil : key()
            if let key, let old = positions[key], bytes > conflationThreshold! {
                dropped.append(old)
                bytes -= old.count
                if pending.count - bytes > bytes { removeDropped() }
            }
            let start = pending.count
            pending.append(message)
            pending.append(0x0A)
            bytes += pending.count - start
            if let key { positions[key] = start..<pending.count }
            wakeWriterIfIdle()
        }
    }

    /// What a deferred message counts for in `queuedBytes`: about four times a field
    /// notification's encoded length, so that few wait unencoded under the high-water mark and
    /// the storage they leave behind stays small (figure 4's "no growth").
    package static let deferredMessageBytes = 1024

    /// Whether messages may wait unencoded, for the writer to encode: only in a queue that never
    /// conflates, as conflating replaces one message's bytes with another's.
    package var takesDeferredOutput: Bool { conflationThreshold == nil }

    /// Keeps messages for the writer to encode, after everything enqueued before them. A waiting
    /// writer is woken at once: the sender hands them over when its work is done, so deferring
    /// the wake-up would only cost another turn of its executor.
    package func enqueue(deferred output: any DeferredOutput) {
        precondition(takesDeferredOutput, "a conflating queue needs each message's bytes")
        condition.withLock {
            deferred.append((pending.count, output))
            bytes += output.count * Self.deferredMessageBytes
            if writerIsWaiting { signalWriter() }
        }
    }

    /// Whether nothing waits to be written. Called with the lock held.
    private var isEmpty: Bool { pending.isEmpty && deferred.isEmpty }

    /// Frees the space of replaced events once it outweighs the live ones, so a client that
    /// stops reading costs memory in proportion to its live fields only. Called with the lock held.
    private func removeDropped() {
        dropped.sort { $0.lowerBound < $1.lowerBound }
        pending.remove(dropped)
        // Each waiting event moves down by the length of the dropped ranges before it.
        var removedBefore: [(position: Int, removed: Int)] = []
        var removed = 0
        for range in dropped {
            removed += range.count
            removedBefore.append((range.upperBound, removed))
        }
        for (key, range) in positions {
            // Binary search for the dropped ranges that end at or before this event.
            var low = 0, high = removedBefore.count
            while low < high {
                let middle = (low + high) / 2
                if removedBefore[middle].position <= range.lowerBound { low = middle + 1 } else { high = middle }
            }
            let shift = low == 0 ? 0 : removedBefore[low - 1].removed
            positions[key] = range.lowerBound - shift..<range.upperBound - shift
        }
        dropped.removeAll(keepingCapacity: true)
    }

    /// Called with the lock held.
    private func wakeWriterIfIdle() {
        guard writerIsWaiting, !wakeIsScheduled else { return }
        guard let deferWake, bytes < Self.wakeAtOnceBytes else {
            signalWriter()
            return
        }
        wakeIsScheduled = true
        deferWake { [self] in
            condition.withLock {
                wakeIsScheduled = false
                signalWriter()
            }
        }
    }

    /// Wakes the writer: its thread's condition, or, for a writer without a thread, what
    /// `wakesWriter(by:)` was given. Called with the lock held.
    private func signalWriter() {
        if let wake { wake() } else { condition.signal() }
    }

    /// How a writer without a thread of its own (a polled socket's) is woken, under the queue's
    /// lock: such a writer takes with `takeAvailable`, and counts as waiting whenever it has
    /// found nothing to take. Set once, before anything is enqueued.
    package func wakesWriter(by wake: @escaping @Sendable () -> Void) {
        condition.withLock {
            self.wake = wake
            writerIsWaiting = true
        }
    }

    /// What a writer without a thread finds: a batch, nothing yet, or the end.
    package enum Available {
        case batch(OutgoingBatch)
        case nothing
        case closed
    }

    /// Takes what waits without waiting, for a writer without a thread. Finding nothing (or a
    /// sender's message being written by the sender), it counts as waiting, and `whenNothing`
    /// runs under the lock, before any sender can wake it again.
    package func takeAvailable(whenNothing: () -> Void) -> Available {
        condition.withLock {
            if isEmpty && isClosed && !isWriting {
                whenNothing()
                return .closed
            }
            guard !isEmpty, !isWriting else {
                writerIsWaiting = true
                whenNothing()
                return .nothing
            }
            writerIsWaiting = false
            return .batch(takeBatch())
        }
    }

    /// Waits for messages and takes all of them, or returns nil once closed and empty. The writer
    /// gives the batch's buffer back with `didWrite(returning:)`.
    package func takeAll() -> OutgoingBatch? {
        condition.withLock {
            while isEmpty && !isClosed {
                writerIsWaiting = true
                condition.wait()
                writerIsWaiting = false
            }
            if isEmpty { return nil }
            return takeBatch()
        }
    }

    /// Everything waiting, as a batch being written. Called with the lock held.
    private func takeBatch() -> OutgoingBatch {
        let batch = OutgoingBatch(
            buffer: pending, dropped: dropped.sorted { $0.lowerBound < $1.lowerBound }, deferred: deferred)
        pending = spare ?? OutgoingBuffer()
        spare = nil
        dropped.removeAll(keepingCapacity: true)
        // Not keeping capacity: the batch holds this storage until written, and storage kept
        // at a backlog's size would stay resident after it (figure 4's "no growth").
        deferred = []
        positions.removeAll(keepingCapacity: true)
        bytes = 0
        isWriting = true
        return batch
    }

    /// Claims the writer's turn when nothing is waiting and nothing is being written, so the
    /// caller may write a message itself; it must then call `didWrite()` or `releaseClaim()`.
    package func claimIdleWriter() -> Bool {
        condition.withLock {
            guard isEmpty, !isWriting, !isClosed else { return false }
            isWriting = true
            return true
        }
    }

    /// Gives back a claim from `claimIdleWriter()` without having written.
    package func releaseClaim() {
        condition.withLock {
            isWriting = false
            if writtenWaiters > 0 { condition.broadcast() }
        }
    }

    /// Called by the writer once a batch is written, with the batch's buffer to use again.
    package func didWrite(returning buffer: OutgoingBuffer) {
        buffer.removeAll()
        condition.withLock { spare = buffer }
        didWrite()
    }

    /// Called once what was taken or claimed is written.
    package func didWrite() {
        let ready: [@Sendable () -> Void] = condition.withLock {
            isWriting = false
            // What came while a sender wrote found the writer's turn taken; a writer without a
            // thread is woken for it now (a thread's own would be already).
            if wake != nil && writerIsWaiting && (!isEmpty || isClosed) { signalWriter() }
            let ready = drainWaiters.filter { bytes <= $0.limit }
            drainWaiters.removeAll { bytes <= $0.limit }
            if writtenWaiters > 0 { condition.broadcast() }
            return ready.map(\.action)
        }
        ready.forEach { $0() }
    }

    /// Runs `action` (on the writer thread) once at most `limit` bytes are waiting; at once if so now.
    package func whenDrained(below limit: Int, _ action: @escaping @Sendable () -> Void) {
        let now: Bool = condition.withLock {
            if bytes <= limit { return true }
            drainWaiters.append((limit, action))
            return false
        }
        if now { action() }
    }

    /// Wakes a waiting writer now for what waits to be written: for a caller about to wait on
    /// something that waits on the writer, behind which a deferred wake-up would never run.
    package func wakeWriterNow() {
        condition.withLock {
            if writerIsWaiting && !isEmpty { if let wake { wake() } else { condition.broadcast() } }
        }
    }

    /// Blocks until everything enqueued so far has been written, or until `deadline`; says which.
    package func waitUntilWritten(before deadline: Date) -> Bool {
        condition.withLock {
            // A deferred wake-up may be queued behind the caller; wake the writer now.
            condition.broadcast()
            if writerIsWaiting && !isEmpty, let wake { wake() }
            writtenWaiters += 1
            defer { writtenWaiters -= 1 }
            while !isEmpty || isWriting {
                if !condition.wait(until: deadline) { return isEmpty && !isWriting }
            }
            return true
        }
    }

    package func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
            if writerIsWaiting, let wake { wake() }
        }
    }
}
