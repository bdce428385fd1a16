#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writing a polled socket: nothing blocks. A write takes what the socket has room for; the rest
/// waits in the outbox, and the poller's thread writes it when the socket has room again, then
/// goes on with whatever else waits in the queue.
extension ConnectionWriter {
    /// How a write went.
    enum Written {
        /// All of it (or, the client gone, none, as no more is written).
        case all
        case clientGone
        /// Part, the rest kept in the outbox: a polled socket that had no room for all of it.
        case restWaiting
    }

    /// What a polled socket has not taken yet, and whose turn of the queue it finishes.
    struct Outbox {
        var bytes: [UInt8] = []
        var written = 0
        /// The buffer of the batch being written, given back to the queue once it is.
        var batchBuffer: OutgoingBuffer?
        /// Whether the rest is a sender's direct write (`writeIfIdle`), whose claim ends with it.
        var holdsSendersClaim = false

        var isEmpty: Bool { written == bytes.count }
    }

    /// Writes `bytes` whole, blocking, on a thread's descriptor. On a polled socket, writes what it
    /// takes now, after anything the outbox holds, and keeps the rest there.
    func put(_ bytes: UnsafeRawBufferPointer) -> Written {
        guard socket != nil else { return writeAll(bytes, to: fd) ? .all : .clientGone }
        return outbox.withLock { outbox in
            var offset = 0
            if outbox.isEmpty {
                switch writeWithoutBlocking(bytes) {
                case .some(let count) where count == bytes.count: return .all
                case .some(let count): offset = count
                case nil: return .clientGone
                }
            }
            if outbox.isEmpty {
                outbox.bytes.removeAll(keepingCapacity: true)
                outbox.written = 0
            }
            outbox.bytes.append(contentsOf: bytes[offset...])
            return .restWaiting
        }
    }

    /// How many bytes the socket took without blocking (0 when it had no room), or nil when the
    /// client has gone.
    private func writeWithoutBlocking(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            // A socket's write by `send`, so a client gone raises EPIPE, never SIGPIPE.
            let written = Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                return nil
            }
        }
        return offset
    }

    /// On the poller's thread, while the socket is watched for room: writes the outbox, then every
    /// batch the queue holds, until the socket has no room (it stays watched) or nothing waits
    /// (it is watched no more). Once the queue is closed and written, the writer has stopped.
    func writeWhatWaits() {
        while true {
            guard writeOutbox() else { return }
            switch queue.takeAvailable(whenNothing: { socket?.watchWriting(false) }) {
            case .nothing:
                return
            case .closed:
                hasStopped()
                return
            case .batch(let batch):
                var scratch: [UInt8] = []
                batch.forEachRun(gatheringIn: &scratch) { run, screening in
                    if write(run, screening: screening) == .clientGone { clientHasGone() }
                }
                let isWritten = outbox.withLock { outbox in
                    if outbox.isEmpty { return true }
                    outbox.batchBuffer = batch.buffer
                    return false
                }
                if isWritten { queue.didWrite(returning: batch.buffer) }
            }
        }
    }

    /// Writes what the outbox holds; whether all of it is written (or dropped, the client gone),
    /// in which case the turn it finishes ends.
    private func writeOutbox() -> Bool {
        enum Outcome {
            case waiting, clientGone
            case written(OutgoingBuffer?, endsSendersClaim: Bool)
        }
        let outcome: Outcome = outbox.withLock { outbox in
            if !outbox.isEmpty && !isClientGone.load(ordering: .acquiring) {
                let taken = outbox.bytes.withUnsafeBytes {
                    writeWithoutBlocking(UnsafeRawBufferPointer(rebasing: $0[outbox.written...]))
                }
                guard let taken else { return .clientGone }
                outbox.written += taken
                if !outbox.isEmpty { return .waiting }
            }
            let written = Outcome.written(outbox.batchBuffer, endsSendersClaim: outbox.holdsSendersClaim)
            // Storage kept at a backlog's size would stay resident for every connection.
            outbox = Outbox()
            return written
        }
        switch outcome {
        case .waiting:
            return false
        case .clientGone:
            clientHasGone()
            return writeOutbox()
        case .written(let buffer?, _):
            queue.didWrite(returning: buffer)
        case .written(nil, endsSendersClaim: true):
            queue.didWrite()
        case .written(nil, endsSendersClaim: false):
            break
        }
        return true
    }
}
