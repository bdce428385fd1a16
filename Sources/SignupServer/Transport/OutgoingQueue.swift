import Foundation

/// Identifies events of which only the latest matters: one field's result, or one form's
/// `submitEnabled`. Responses and submission events have none and are never dropped.
struct ConflationKey: Hashable, Sendable {
    var form: String
    var topic: String
}

/// Messages waiting for the writer thread. Once more than `conflationThreshold` bytes wait (the
/// client is not keeping up), a newer event with the same conflation key replaces the older one
/// still waiting (the newer goes to the back, so the order of causes is kept), which bounds the
/// queue by the number of live fields, not by how much happens. Without a threshold nothing is
/// ever dropped: output then depends on the input alone.
final class OutgoingQueue: @unchecked Sendable {
    private let conflationThreshold: Int?
    private let condition = NSCondition()
    private var entries: [[UInt8]?] = []
    private var head = 0
    private var positions: [ConflationKey: Int] = [:]
    private var bytes = 0
    private var isClosed = false
    private var isWriting = false
    private var writerIsWaiting = false
    private var wakeIsScheduled = false
    private let deferWake: (@Sendable (@escaping @Sendable () -> Void) -> Void)?
    private var drainWaiters: [(limit: Int, action: @Sendable () -> Void)] = []

    /// Above this many waiting bytes an idle writer is woken at once rather than deferred.
    static let wakeAtOnceBytes = 64 << 10

    /// `deferWake`, when given, runs the writer's wake-up later on the producer's own executor
    /// (after the work that is sending now), so one wake-up (a futex call and a context switch)
    /// carries every message that work produced instead of one each. Without it each message
    /// that finds the writer idle wakes it at once.
    init(conflationThreshold: Int?, deferWake: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil) {
        self.conflationThreshold = conflationThreshold
        self.deferWake = deferWake
    }

    /// Whether the writer is waiting for messages (for tests).
    var isWriterWaiting: Bool { condition.withLock { writerIsWaiting } }

    /// Bytes waiting to be written.
    var queuedBytes: Int { condition.withLock { bytes } }

    func enqueue(_ message: [UInt8], key: ConflationKey?) {
        condition.withLock {
            let key = conflationThreshold == nil ? nil : key
            if let key, let old = positions[key], bytes > conflationThreshold! {
                bytes -= entries[old]?.count ?? 0
                entries[old] = nil
            }
            let position = entries.count
            entries.append(message)
            bytes += message.count
            if let key { positions[key] = position }
            wakeWriterIfIdle()
        }
    }

    /// Called with the lock held.
    private func wakeWriterIfIdle() {
        guard writerIsWaiting, !wakeIsScheduled else { return }
        guard let deferWake, bytes < Self.wakeAtOnceBytes else {
            condition.signal()
            return
        }
        wakeIsScheduled = true
        deferWake { [self] in
            condition.withLock {
                wakeIsScheduled = false
                condition.signal()
            }
        }
    }

    /// Waits for messages and takes all of them, or returns nil once closed and empty.
    func takeAll() -> [[UInt8]]? {
        condition.withLock {
            while head == entries.count && !isClosed {
                writerIsWaiting = true
                condition.wait()
                writerIsWaiting = false
            }
            if head == entries.count { return nil }
            let taken = entries[head...].compactMap { $0 }
            entries.removeAll(keepingCapacity: entries.capacity < 4096)
            head = 0
            positions.removeAll(keepingCapacity: true)
            bytes = 0
            isWriting = true
            return taken
        }
    }

    /// Claims the writer's turn when nothing is waiting and nothing is being written, so the
    /// caller may write a message itself; it must then call `didWrite()` or `releaseClaim()`.
    func claimIdleWriter() -> Bool {
        condition.withLock {
            guard head == entries.count, !isWriting, !isClosed else { return false }
            isWriting = true
            return true
        }
    }

    /// Gives back a claim from `claimIdleWriter()` without having written.
    func releaseClaim() {
        condition.withLock {
            isWriting = false
            condition.broadcast()
        }
    }

    /// Called by the writer once what it took is written.
    func didWrite() {
        let ready: [@Sendable () -> Void] = condition.withLock {
            isWriting = false
            let ready = drainWaiters.filter { bytes <= $0.limit }
            drainWaiters.removeAll { bytes <= $0.limit }
            condition.broadcast()
            return ready.map(\.action)
        }
        ready.forEach { $0() }
    }

    /// Runs `action` (on the writer thread) once at most `limit` bytes are waiting; at once if so now.
    func whenDrained(below limit: Int, _ action: @escaping @Sendable () -> Void) {
        let now: Bool = condition.withLock {
            if bytes <= limit { return true }
            drainWaiters.append((limit, action))
            return false
        }
        if now { action() }
    }

    /// Blocks until everything enqueued so far has been written.
    func waitUntilWritten() {
        condition.withLock {
            // A deferred wake-up may be queued behind the caller; wake the writer now.
            condition.broadcast()
            while head != entries.count || isWriting { condition.wait() }
        }
    }

    func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }
}
