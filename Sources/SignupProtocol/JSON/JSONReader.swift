#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one reader of JSON text (RFC 8259) over UTF-8 bytes, token by token: `JSONParser` builds a
/// `JSON` tree through it, and a typed decoder (`FormEditLine`) reads a request's members through
/// it straight into their types. The grammar and every check live here once.
///
/// It validates UTF-8 (no overlong forms, no encoded surrogates, nothing past U+10FFFF), rejects
/// lone surrogates in `\u` escapes and raw control characters in strings, and refuses objects
/// and arrays nested deeper than `maxDepth`. A refusal is a `JSONParseError` at the byte offset
/// where the text stopped being JSON.
package struct JSONReader {
    package let bytes: UnsafeBufferPointer<UInt8>
    /// How deeply arrays and objects may nest.
    package let maxDepth: Int
    /// The most non-starters a string may hold in a row (see `CombiningMarks`).
    package let marksInARow: Int
    /// The offset of the next byte to read.
    package private(set) var index = 0

    package init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, marksInARow: Int = CombiningMarks.mostInARow) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.marksInARow = marksInARow
    }

    /// A string as it lies in the text, checked: its bytes between the quotes.
    package struct StringToken {
        /// The bytes between the quotes, escapes as written.
        package let text: UnsafeBufferPointer<UInt8>
        /// The offset of the opening quote.
        package let quote: Int
        /// Whether `text` holds a backslash escape, so it is not the string's own bytes.
        package let isEscaped: Bool
        /// Whether every byte of `text` is ASCII.
        package let isASCII: Bool
    }

    package var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
    }

    /// Takes `byte` if it is the next one.
    @inline(__always)
    package mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Takes `literal` if the bytes at the cursor are exactly it: for a typed decoder that matches
    /// the shape most clients write before reading token by token.
    @inline(__always)
    package mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count, let base = bytes.baseAddress,
              memcmp(base + index, literal.utf8Start, count) == 0 else { return false }
        index += count
        return true
    }

    /// Throws unless the rest of the text is whitespace.
    package mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if index < bytes.count { throw JSONParseError(.trailingCharacters, at: index) }
    }

    /// Reads `true`, `false` or `null` as `literal` spells it.
    package mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard let byte = current else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard byte == expected else { throw JSONParseError(.invalidLiteral, at: start) }
            index += 1
        }
    }

    /// Reads `{`, then each member: its key, taken by `key` as it ends (`string(_:)` for the name,
    /// refused there as any string would be), then handed to `member` with the reader at its
    /// value, which `member` reads. `member` returns false to stop where it is, and so does this.
    /// The object is at nesting level `depth` (1 for a top-level object).
    @inline(__always)
    package mutating func readObject<Key>(
        depth: Int, key: (JSONReader, StringToken) throws(JSONParseError) -> Key,
        member: (inout JSONReader, Key) throws(JSONParseError) -> Bool
    ) throws(JSONParseError) -> Bool {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: index) }
        index += 1
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw current == nil ? JSONParseError(.unexpectedEnd, at: index) : JSONParseError(.expectedKey, at: index)
            }
            let name = try key(self, readString())
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else {
                throw current == nil ? JSONParseError(.unexpectedEnd, at: index) : JSONParseError(.expectedColon, at: index)
            }
            skipWhitespace()
            guard try member(&self, name) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return true
            case nil: throw JSONParseError(.unexpectedEnd, at: index)
            default: throw JSONParseError(.expectedCommaOrEnd("}"), at: index)
            }
        }
    }

    /// Reads `[`, then each element through `element`, then `]`; at nesting level `depth`.
    package mutating func readArray(
        depth: Int, _ element: (inout JSONReader) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        if depth > maxDepth { throw JSONParseError(.tooDeep(maxDepth), at: index) }
        index += 1
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return
            case nil: throw JSONParseError(.unexpectedEnd, at: index)
            default: throw JSONParseError(.expectedCommaOrEnd("]"), at: index)
            }
        }
    }

    /// Reads a number, checked against the grammar, and returns its text.
    package mutating func readNumber() throws(JSONParseError) -> UnsafeBufferPointer<UInt8> {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard let first = current, first.isDigit else { throw JSONParseError(.invalidNumber, at: start) }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if take(UInt8(ascii: ".")) {
            guard let digit = current, digit.isDigit else { throw JSONParseError(.invalidNumber, at: start) }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, digit.isDigit else { throw JSONParseError(.invalidNumber, at: start) }
            skipDigits()
        }
        if let next = current, next.isDigit { throw JSONParseError(.invalidNumber, at: start) }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    private mutating func skipDigits() {
        while let byte = current, byte.isDigit { index += 1 }
    }

    /// Reads a string, checked, the cursor at its opening quote.
    @inline(__always)
    package mutating func readString() throws(JSONParseError) -> StringToken {
        let quote = index
        index += 1
        // Plain ASCII without escapes, the common case, in one tight pass over the raw bytes.
        guard let base = bytes.baseAddress else { throw JSONParseError(.unterminatedString, at: index) }
        var position = index
        while position < bytes.count {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return StringToken(text: UnsafeBufferPointer(start: base + quote + 1, count: position - quote - 1),
                                   quote: quote, isEscaped: false, isASCII: true)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            position += 1
        }
        index = position
        return try readRestOfString(from: quote)
    }

    /// The rest of a string that holds an escape, a control character or a byte past ASCII.
    private mutating func readRestOfString(from quote: Int) throws(JSONParseError) -> StringToken {
        var isEscaped = false, isASCII = true
        while true {
            guard let byte = current else { throw JSONParseError(.unterminatedString, at: index) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let text = UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<(index - 1)])
                return StringToken(text: text, quote: quote, isEscaped: isEscaped, isASCII: isASCII)
            case UInt8(ascii: "\\"):
                isEscaped = true
                try skipEscape()
            case 0..<0x20:
                throw JSONParseError(.controlCharacterInString(byte), at: index)
            case 0..<0x80:
                index += 1
            default:
                isASCII = false
                try skipUTF8Sequence()
            }
        }
    }

    private mutating func skipEscape() throws(JSONParseError) {
        let start = index
        index += 1
        guard let escaped = current else { throw JSONParseError(.unterminatedString, at: index) }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            if (0xD800...0xDBFF).contains(unit) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(.loneSurrogate, at: start)
                }
                index += 2
                guard (0xDC00...0xDFFF).contains(try readHex4()) else { throw JSONParseError(.loneSurrogate, at: start) }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONParseError(.loneSurrogate, at: start)
            }
        default:
            throw JSONParseError(.invalidEscape, at: start)
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw JSONParseError(.unterminatedString, at: index) }
            guard let digit = byte.hexDigitValue else { throw JSONParseError(.invalidEscape, at: index) }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Skips one well-formed multi-byte UTF-8 sequence (Unicode's table 3-7), or throws.
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
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
        index += length
    }
}

extension UInt8 {
    var isDigit: Bool { self >= 0x30 && self <= 0x39 }

    var hexDigitValue: UInt32? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(self - 0x30)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(self - 0x61 + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(self - 0x41 + 10)
        default: nil
        }
    }
}
