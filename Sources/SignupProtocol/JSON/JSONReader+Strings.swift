extension JSONReader {
    /// The string `token` spells, its escapes decoded; refused, at its opening quote, when it holds
    /// more combining marks in a row than `marksInARow` (see `CombiningMarks`).
    package func string(_ token: StringToken) throws(JSONParseError) -> String {
        if !token.isEscaped && token.isASCII { return String(decoding: token.text, as: UTF8.self) }
        let string = token.isEscaped ? Self.unescaping(token.text) : String(decoding: token.text, as: UTF8.self)
        if CombiningMarks.exceed(marksInARow, in: string) {
            throw JSONParseError(.tooManyCombiningMarks(marksInARow), at: token.quote)
        }
        return string
    }

    /// The string of a token's text, already checked by `readString`, with its escapes decoded.
    private static func unescaping(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        func hex4(at offset: Int) -> UInt32 {
            (offset..<(offset + 4)).reduce(0) { $0 << 4 | (text[$1].hexDigitValue ?? 0) }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escaped = text[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // `readString` checked that a low surrogate's `\uXXXX` follows.
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(at: index + 2) - 0xDC00)
                    index += 6
                }
                appendUTF8(scalar, to: &bytes)
            default: bytes.append(escaped)  // `"`, `\` or `/`
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
