import SignupCore

/// SHA-1 (FIPS 180-4), only because the Pwned Passwords range API is keyed by it: the first five
/// hex digits of a password's SHA-1 are all that leave the process. Never used to store anything.
enum SHA1 {
    /// The 20-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        let message = DigestBlocks.padded(bytes)
        var words = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 { words[index] = DigestBlocks.word(message, at: blockStart + index * 4) }
            for index in 16..<80 { words[index] = rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1) }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = rotate(a, 5) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d; state[4] &+= e
        }
        return DigestBlocks.bytes(of: state)
    }

    /// The digest of `text`'s UTF-8 as 40 upper-case hex digits, as the range API writes suffixes.
    static func upperHexDigest(_ text: String) -> String {
        DigestBlocks.hex(digest(Array(text.utf8)), uppercase: true)
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
