#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SignupCore

/// The one writer of protocol messages: each message goes out whole, followed by `\n`, through a
/// buffer flushed at the end of every event-loop turn, so two messages can never interleave.
final class StdoutWriter: MessageSink {
    private let fd: Int32
    private let loop: EventLoop
    private var buffer: [UInt8] = []
    private var flushScheduled = false
    private let onBrokenPipe: () -> Void
    private(set) var isBroken = false

    init(fd: Int32, loop: EventLoop, onBrokenPipe: @escaping () -> Void) {
        self.fd = fd
        self.loop = loop
        self.onBrokenPipe = onBrokenPipe
        buffer.reserveCapacity(64 * 1024)
    }

    func send(_ message: [UInt8]) {
        guard !isBroken else { return }
        buffer.append(contentsOf: message)
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 {
            flush()
        } else if !flushScheduled {
            flushScheduled = true
            loop.executeTransferring { [self] in
                flushScheduled = false
                flush()
            }
        }
    }

    /// Writes everything buffered, waiting while the client is slow to read.
    func flush() {
        guard !buffer.isEmpty, !isBroken else { return }
        var offset = 0
        let failed: Bool = buffer.withUnsafeBufferPointer { bytes in
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += written
            }
            return false
        }
        buffer.removeAll(keepingCapacity: true)
        if failed {
            isBroken = true
            onBrokenPipe()
        }
    }
}
