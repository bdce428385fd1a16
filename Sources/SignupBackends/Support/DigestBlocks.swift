/// What SHA-1 and SHA-256 share (FIPS 180-4 §5): the message padded to 64-byte blocks with its
/// bit length, read as big-endian 32-bit words, and the digest written in hex.
enum DigestBlocks {
    /// `bytes`, a 1 bit, zeros, and the length in bits as 64 big-endian bits: a whole number of blocks.
    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        var message = bytes
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        return message
    }

    /// The 32-bit big-endian word at `offset`.
    static func word(_ message: [UInt8], at offset: Int) -> UInt32 {
        UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16 | UInt32(message[offset + 2]) << 8 | UInt32(message[offset + 3])
    }

    /// The state words as the digest's bytes, most significant first.
    static func bytes(of state: [UInt32]) -> [UInt8] {
        state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }

    /// The bytes in hexadecimal, two digits each.
    static func hex(_ bytes: [UInt8], uppercase: Bool) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
