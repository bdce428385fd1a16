#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension UnsafeRawBufferPointer {
    /// Whether `other` holds the same bytes: one `memcmp`, where `elementsEqual` compares byte by
    /// byte through generic code.
    package func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count > 0, let base = baseAddress, let otherBase = other.baseAddress else { return true }
        return memcmp(base, otherBase, count) == 0
    }
}
