import Foundation

/// What a session's writer wrote, handed line by line to the recording's encoder: on the virtual
/// clock, where every message is written and in the order sent, the recording copies each message
/// out as the writer encoded it, rather than encoding it a second time (`RecordLog.appendTeedOut`).
///
/// The writer publishes each run of whole lines it writes; the encoder takes them a line at a
/// time, in order, and waits when it is ahead of the writer.
package final class OutputTee: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var published: [[UInt8]] = []
    private var nextPublished = 0
    private var isClosed = false

    /// The run the encoder reads, and where its next line starts: the encoder's own.
    private var current: [UInt8] = []
    private var offset = 0

    package init() {}

    /// Keeps a run of whole lines, each ending in `\n`, as written; on the writer's thread.
    package func publish(_ run: UnsafeRawBufferPointer) {
        guard !run.isEmpty else { return }
        let copy = [UInt8](run)
        condition.withLock {
            published.append(copy)
            condition.signal()
        }
    }

    /// No more lines will be published: the writer was given up on with lines it never wrote.
    package func close() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }

    /// Hands `body` the next line written, without its `\n`, valid only during the call; on the
    /// encoder's queue. Waits until the writer has written it; false, without calling `body`, once
    /// closed without it. Not generic, so that a caller in another module runs no generic code.
    package func withNextLine(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        if offset == current.count, !takeNextRun() { return false }
        current.withUnsafeBytes { run in
            let end = run.firstLineFeed(from: offset) ?? run.count
            defer { offset = min(end + 1, run.count) }
            body(UnsafeRawBufferPointer(rebasing: run[offset..<end]))
        }
        return true
    }

    private func takeNextRun() -> Bool {
        let next = condition.withLock { () -> [UInt8]? in
            while nextPublished == published.count {
                if isClosed { return nil }
                condition.wait()
            }
            let run = published[nextPublished]
            published[nextPublished] = []
            nextPublished += 1
            if nextPublished == published.count {
                published.removeAll(keepingCapacity: true)
                nextPublished = 0
            }
            return run
        }
        guard let next else { return false }
        current = next
        offset = 0
        return true
    }
}
