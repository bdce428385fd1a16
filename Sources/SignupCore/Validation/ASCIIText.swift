extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is below 0x80: eight bytes at a time, then one at a time.
    package var isASCII: Bool {
        guard let base = baseAddress else { return true }
        var offset = 0
        while offset + 8 <= count {
            if UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < count {
            if base[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }
}

extension String {
    /// Whether every code point is ASCII; a native string's bytes are read in place.
    package var isASCII: Bool {
        utf8.withContiguousStorageIfAvailable(\.isASCII) ?? utf8.allSatisfy { $0 < 0x80 }
    }
}

extension String {
    /// `lowercased()`, but a string that is lower-case ASCII already (most names and passwords
    /// people type) is returned as it is, sharing its storage instead of copying it.
    package func lowercasedSharingLowerASCII() -> String {
        let isLowerASCII = utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 >= 0x80 || $0 &- UInt8(ascii: "A") < 26 }
        } ?? false
        return isLowerASCII ? self : lowercased()
    }
}
