#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes all of `bytes` to `fd`, going on after a signal interrupts or a pipe takes part of them
/// (waiting while the reader is slow); false when the descriptor takes no more (a closed pipe).
package func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
    }
    return true
}

/// A descriptor written whole until a write to it fails (a full disk, an I/O error), and not after,
/// so what it holds is a whole prefix of what was meant for it, never one with holes. Used by one
/// owner at a time (the recording's queue, the tracer's lock).
package final class OutputDescriptor: @unchecked Sendable {
    package let fd: Int32
    private var hasFailed = false

    package init(_ fd: Int32) {
        self.fd = fd
    }

    /// Writes `bytes` unless a write failed before; the reason when this one fails.
    package func write(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard !hasFailed, !writeAll(bytes, to: fd) else { return nil }
        let reason = String(cString: strerror(errno))
        hasFailed = true
        return reason
    }
}
