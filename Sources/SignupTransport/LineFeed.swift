#if canImport(Glibc)
import Glibc
#endif

extension UnsafeRawBufferPointer {
    /// The position of the first `\n` at or after `start`, found by `memchr` (a word or a vector
    /// at a time), or nil when there is none.
    func firstLineFeed(from start: Int) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, 0x0A, count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The position of the first `\n` at or after `start`, or nil when there is none.
    func firstLineFeed(from start: Int) -> Int? {
        UnsafeRawBufferPointer(self).firstLineFeed(from: start)
    }
}
