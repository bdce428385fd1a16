/// Why a line is not JSON, and the byte offset where that became clear.
package struct JSONParseError: Error, Equatable, CustomStringConvertible {
    package enum Reason: Equatable {
        case unexpectedEnd
        case unexpectedCharacter(UInt8)
        case trailingCharacters
        case invalidLiteral
        case invalidNumber
        case expectedKey
        case expectedColon
        case expectedCommaOrEnd(Character)
        case unterminatedString
        case controlCharacterInString(UInt8)
        case invalidEscape
        case loneSurrogate
        case invalidUTF8
        case tooDeep(Int)
        /// A string with more non-starters in a row than `CombiningMarks` allows; at its quote.
        case tooManyCombiningMarks(Int)
    }

    package var reason: Reason
    package var offset: Int

    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var description: String {
        switch reason {
        case .unexpectedEnd: return "the JSON text ends too early"
        case .unexpectedCharacter(let byte):
            return byte >= 0x80 ? "invalid UTF-8 or a character that cannot start a value"
                : "unexpected character \(Self.show(byte))"
        case .trailingCharacters: return "unexpected characters after the JSON value (one message per line)"
        case .invalidLiteral: return "invalid literal (expected true, false or null)"
        case .invalidNumber: return "invalid number"
        case .expectedKey: return "expected a string member name"
        case .expectedColon: return "expected ':' after a member name"
        case .expectedCommaOrEnd(let end): return "expected ',' or '\(end)'"
        case .unterminatedString: return "unterminated string"
        case .controlCharacterInString(let byte):
            return "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4)) in a string must be escaped"
        case .invalidEscape: return "invalid escape sequence"
        case .loneSurrogate: return "\\u escape encodes a lone UTF-16 surrogate"
        case .invalidUTF8: return "invalid UTF-8"
        case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
        case .tooManyCombiningMarks(let limit): return "a string with more than \(limit) combining marks in a row"
        }
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F
            ? "'\(String(UnicodeScalar(byte)))'"
            : "U+" + String(byte, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
