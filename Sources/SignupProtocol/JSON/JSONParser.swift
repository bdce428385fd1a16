/// A strict JSON (RFC 8259) parser over UTF-8 bytes.
///
/// It validates UTF-8 (no overlong forms, no encoded surrogates, nothing past U+10FFFF), rejects
/// lone surrogates in `\u` escapes and raw control characters in strings, limits nesting so deep
/// input cannot overflow the stack, and insists that one value fills the whole input.
package struct JSONParser {
    /// How deeply arrays and objects may nest.
    package static let defaultMaxDepth = 64

    /// `marksInARow` is the most non-starters a string may hold in a row (see `CombiningMarks`).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth, marksInARow: Int = CombiningMarks.mostInARow
    ) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth, marksInARow: marksInARow)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw JSONParseError(.trailingCharacters, at: parser.index)
        }
        return value
    }

    package static func parse(
        _ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, marksInARow: Int = CombiningMarks.mostInARow
    ) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try parse(buffer, maxDepth: maxDepth, marksInARow: marksInARow))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private let marksInARow: Int
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, marksInARow: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.marksInARow = marksInARow
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
        guard let byte = current else { throw JSONParseError(.unexpectedEnd, at: index) }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw JSONParseError(.unexpectedCharacter(byte), at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard let byte = current else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard byte == expected else { throw JSONParseError(.invalidLiteral, at: start) }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: index) }
        index += 1
        var members: [JSON.Member] = []
        // Requests have up to four members and their params a handful: one allocation, no regrowth.
        members.reserveCapacity(6)
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw current == nil ? JSONParseError(.unexpectedEnd, at: index) : JSONParseError(.expectedKey, at: index)
            }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw current == nil ? JSONParseError(.unexpectedEnd, at: index) : JSONParseError(.expectedColon, at: index)
            }
            index += 1
            skipWhitespace()
            members.append(JSON.Member(key: key, value: try parseValue(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw JSONParseError(.unexpectedEnd, at: index)
            default: throw JSONParseError(.expectedCommaOrEnd("}"), at: index)
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: index) }
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case nil: throw JSONParseError(.unexpectedEnd, at: index)
            default: throw JSONParseError(.expectedCommaOrEnd("]"), at: index)
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw JSONParseError(.invalidNumber, at: start) }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, isDigit(digit) else { throw JSONParseError(.invalidNumber, at: start) }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else { throw JSONParseError(.invalidNumber, at: start) }
            skipDigits()
        }
        if let next = current, isDigit(next) { throw JSONParseError(.invalidNumber, at: start) }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: plain ASCII without escapes becomes a String in one step.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw JSONParseError(.unterminatedString, at: index) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let string = String(decoding: scalars, as: UTF8.self)
                if CombiningMarks.exceed(marksInARow, in: string) {
                    throw JSONParseError(.tooManyCombiningMarks(marksInARow), at: start - 1)
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scalars)
            case 0..<0x20:
                throw JSONParseError(.controlCharacterInString(byte), at: index)
            case 0..<0x80:
                scalars.append(byte)
                index += 1
            default:
                try copyUTF8Sequence(into: &scalars)
            }
        }
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard let escaped = current else { throw JSONParseError(.unterminatedString, at: index) }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(.loneSurrogate, at: start)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.loneSurrogate, at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw JSONParseError(.loneSurrogate, at: start)
            }
            appendUTF8(scalar, to: &output)
        default:
            throw JSONParseError(.invalidEscape, at: start)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw JSONParseError(.unterminatedString, at: index) }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw JSONParseError(.invalidEscape, at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
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

    /// Copies one well-formed multi-byte UTF-8 sequence (Unicode's table 3-7), or throws.
    private mutating func copyUTF8Sequence(into output: inout [UInt8]) throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw JSONParseError(.invalidUTF8, at: index)
        }
        guard index + length <= bytes.count else { throw JSONParseError(.invalidUTF8, at: index) }
        guard secondRange.contains(bytes[index + 1]) else { throw JSONParseError(.invalidUTF8, at: index) }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw JSONParseError(.invalidUTF8, at: index)
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
        index += length
    }
}
