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
                    } else if !mayChangeWhenLowercased(scalar) || !scalar.properties.changesWhenLowercased {
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

    /// Whether `scalar` lies where the code points that change when lower-cased beyond ASCII do
    /// (`casedRanges`): any other is its own lower case, without a look-up in Unicode's tables.
    @inline(__always)
    static func mayChangeWhenLowercased(_ scalar: Unicode.Scalar) -> Bool {
        for range in casedRanges {
            if scalar.value < range.lowerBound { return false }
            if scalar.value <= range.upperBound { return true }
        }
        return false
    }

    /// Every code point beyond ASCII whose lower case differs from it lies in one of these, in
    /// order (Latin, Greek to Armenian, Georgian, Cherokee, Cyrillic Extended-C and Georgian
    /// Mtavruli, Latin and Greek Extended, Letterlike Symbols and Number Forms, circled letters,
    /// Glagolitic and Coptic, Cyrillic Extended-B, Latin Extended-D, fullwidth Latin, then the
    /// cased scripts beyond the BMP). Derived from, and checked against, the running Unicode
    /// tables by a test, which fails when a new version adds one elsewhere.
    static let casedRanges: [ClosedRange<UInt32>] = [
        0x00C0...0x024E, 0x0370...0x0556, 0x10A0...0x10CD, 0x13A0...0x13F5, 0x1C89...0x1CBF, 0x1E00...0x1FFC,
        0x2126...0x2183, 0x24B6...0x24CF, 0x2C00...0x2CF2, 0xA640...0xA69A, 0xA722...0xA7F5, 0xFF21...0xFF3A,
        0x10400...0x10427, 0x104B0...0x104D3, 0x10570...0x10595, 0x10C80...0x10CB2, 0x10D50...0x10D65,
        0x118A0...0x118BF, 0x16E40...0x16E5F, 0x16EA0...0x16EB8, 0x1E900...0x1E921,
    ]
}
