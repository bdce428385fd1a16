/// A text's code points lower-cased into a buffer of the stack's (of the heap's when large), read
/// in place, as `lowercased()` lowers them, without building the lowered string: ASCII byte by
/// byte (one code point each, whatever follows), any other code point replaced by its
/// `lowercaseMapping`.
enum LowerCasedScalars {
    /// Calls `body` with the first `limit` code points of `text` in lower case.
    static func with<Result>(_ text: String, atMost limit: Int = .max, _ body: (UnsafeBufferPointer<UInt32>) -> Result) -> Result {
        // A code point takes at least a byte and lowers to at most three.
        let utf8Count = text.utf8.count
        let capacity = min(limit, utf8Count <= Int.max / 3 ? utf8Count * 3 : Int.max)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { buffer in
            // Lowers the first `capacity` bytes into `buffer` when they are all ASCII; nil when
            // one is not.
            func lowerASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
                let lowered = UnsafeBufferPointer(rebasing: bytes.prefix(capacity))
                guard lowered.isASCII else { return nil }
                for index in lowered.indices {
                    let byte = lowered[index]
                    buffer[index] = UInt32(byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte)
                }
                return lowered.count
            }
            // Any text: its lowered code points into `buffer`.
            func lowerAll() -> Int {
                var count = 0
                // Puts `value` next in `buffer`; false when it is full.
                func append(_ value: UInt32) -> Bool {
                    guard count < capacity else { return false }
                    buffer[count] = value
                    count += 1
                    return true
                }
                for scalar in text.unicodeScalars {
                    if scalar.isASCII {
                        guard append((0x41...0x5A).contains(scalar.value) ? scalar.value | 0x20 : scalar.value) else { break }
                    } else if !scalar.properties.changesWhenLowercased {
                        // Most code points are their own lower case: no mapping is built for them.
                        guard append(scalar.value) else { break }
                    } else {
                        for lowered in scalar.properties.lowercaseMapping.unicodeScalars where !append(lowered.value) { return count }
                    }
                }
                return count
            }
            // A native string's bytes are read in place, without the view's index checks; any
            // other is lowered as text that is not ASCII is, which lowers ASCII alike.
            let count = text.utf8.withContiguousStorageIfAvailable(lowerASCII).flatMap { $0 } ?? lowerAll()
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
