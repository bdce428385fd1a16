#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes all of `bytes` to `fd`, going on after a signal interrupts or a pipe takes part of them
/// (waiting while the reader is slow); false when the descriptor takes no more (a closed pipe).
func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
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
