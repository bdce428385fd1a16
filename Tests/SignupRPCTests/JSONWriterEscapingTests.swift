import Testing
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The writer's string escaping, which tests eight bytes at a time: against a byte-by-byte
/// reference, at every position around the eight-byte boundaries.
@Suite struct JSONWriterEscapingTests {
    private static let special: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x22, 0x5C]
    private static let plain: [UInt8] = [0x20, 0x21, 0x23, 0x2F, 0x5B, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]

    /// The escaping JSON asks for, one byte at a time.
    private static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        return out + [UInt8(ascii: "\"")]
    }

    @Test func everyByteInEveryLaneOfAWordIsJudgedExactly() {
        for byte in UInt8.min...UInt8.max {
            let needs = byte < 0x20 || byte == 0x22 || byte == 0x5C
            for lane in 0..<8 {
                var word = Array(repeating: UInt8(ascii: "a"), count: 8)
                word[lane] = byte
                let value = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(JSONWriter.anyNeedsEscaping(value) == needs, "byte \(byte) in lane \(lane)")
            }
        }
        // Bytes with the high bit set beside small ones, where a borrow could carry between lanes.
        for word: [UInt8] in [[0x80, 0x20, 0xFF, 0x21, 0xC3, 0xA9, 0x7F, 0x30], [0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20]] {
            #expect(!JSONWriter.anyNeedsEscaping(word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
        }
    }

    @Test func stringsAreEscapedAsByteByByteAtEveryPositionAndLength() {
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for byte in Self.special + Self.plain {
                    var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                    if length > 0 { bytes[position] = byte }
                    // A second special byte further on, so runs between escapes are cut too.
                    if length > position + 9 { bytes[position + 9] = 0x22 }
                    // Invalid UTF-8 is repaired by String; valid text keeps its bytes.
                    let text = String(decoding: bytes, as: UTF8.self)
                    var writer = JSONWriter()
                    writer.string(text)
                    #expect(writer.bytes == Self.reference(Array(text.utf8)), "length \(length) position \(position) byte \(byte)")
                }
            }
        }
    }

    @Test func integersAreWrittenAsSwiftPrintsThem() {
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var random = SeededGenerator(seed: 3)
        values += (0..<1000).map { _ in Int64(bitPattern: random.next()) >> (random.next() % 63) }
        for value in values {
            var writer = JSONWriter(capacity: 1)
            writer.int(value)
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "\(value),\(value)")
        }
    }
}
