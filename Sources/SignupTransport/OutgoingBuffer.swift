#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes waiting to be written, in memory mapped for the purpose.
///
/// Messages are copied in one after another, so the writer hands whole runs of them to `write(2)`
/// without gathering them first. Once written, the pages a burst touched beyond `residentBytes`
/// are given back to the system at once (`madvise`), which memory from `malloc` is not: a client
/// that fell behind for a while leaves no lasting growth. Used under the queue's lock only.
package final class OutgoingBuffer: @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes held.
    package private(set) var count = 0
    /// How far into the mapping bytes reached before `count` last went down (in `remove`); with
    /// `count`, how much of the mapping is resident since pages were last given back.
    private var touched = 0

    /// Bytes kept mapped in between uses; what a burst touched beyond this is given back.
    static let residentBytes = 256 << 10
    /// Address space reserved up front; untouched pages cost no memory.
    static let initialCapacity = 16 << 20

    package init(capacity: Int = initialCapacity) {
        self.capacity = Self.roundedToPages(capacity)
        base = Self.map(self.capacity)
    }

    deinit {
        munmap(base, capacity)
    }

    package var isEmpty: Bool { count == 0 }

    package func append(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        count += bytes.count
    }

    package func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// The bytes in `range`, valid until the buffer is next changed.
    package func bytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Removes the bytes in `ranges` (ascending, not overlapping), moving what follows each down.
    package func remove(_ ranges: [Range<Int>]) {
        touched = max(touched, count)
        var kept = 0
        var start = 0
        for range in ranges + [count..<count] {
            let length = range.lowerBound - start
            if kept != start { (base + kept).update(from: base + start, count: length) }
            kept += length
            start = range.upperBound
        }
        count = kept
    }

    /// Empties the buffer and gives back to the system the pages a burst touched beyond `residentBytes`.
    package func removeAll() {
        let reached = max(touched, count)
        count = 0
        touched = 0
        guard reached > Self.residentBytes else { return }
        madvise(base + Self.residentBytes, Self.roundedToPages(reached) - Self.residentBytes, MADV_DONTNEED)
    }

    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = Self.roundedToPages(max(count + extra, capacity * 2))
        let moved = Self.map(grown)
        moved.initialize(from: base, count: count)
        munmap(base, capacity)
        base = moved
        capacity = grown
        touched = 0
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    private static func roundedToPages(_ bytes: Int) -> Int {
        (bytes + pageSize - 1) / pageSize * pageSize
    }

    private static func map(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else {
            fatalError("cannot map \(bytes) bytes for outgoing messages: \(String(cString: strerror(errno)))")
        }
        return memory.assumingMemoryBound(to: UInt8.self)
    }
}
