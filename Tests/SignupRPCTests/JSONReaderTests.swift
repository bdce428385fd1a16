import Testing
@testable import SignupProtocol

/// `JSONReader` is the one reader of JSON text: the tree parser and the typed `form.edit` decoder
/// both read through it, so its tokens and the offsets of its refusals are the wire's.
@Suite struct JSONReaderTests {
    private func token(_ text: String) throws(JSONParseError) -> (text: String, isEscaped: Bool, isASCII: Bool, end: Int) {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            var reader = JSONReader(buffer, maxDepth: 64)
            let token = try reader.readString()
            return (String(decoding: token.text, as: UTF8.self), token.isEscaped, token.isASCII, reader.index)
        }
    }

    private func refusal(_ text: String) -> JSONParseError? {
        do throws(JSONParseError) {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aStringTokenIsItsTextAsWrittenAndSaysWhatItHolds() throws {
        let plain = try token(#""abc" rest"#)
        #expect(plain.text == "abc" && !plain.isEscaped && plain.isASCII && plain.end == 5)
        let escaped = try token(#""a\"b\u00e9""#)
        #expect(escaped.text == #"a\"b\u00e9"# && escaped.isEscaped && escaped.isASCII && escaped.end == 12)
        let wide = try token("\"ådå\"")
        #expect(wide.text == "ådå" && !wide.isEscaped && !wide.isASCII && wide.end == 7)
    }

    @Test func aTokensStringDecodesItsEscapes() throws {
        let bytes = Array(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u4e2d\ud83d\ude00""#.utf8)
        let string = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) in
            var reader = JSONReader(buffer, maxDepth: 64)
            return try reader.string(reader.readString())
        }
        #expect(string == "\"\\/\u{8}\u{c}\n\r\tAé中😀")
    }

    /// Each refusal comes at the byte where the text stopped being JSON, in reading order.
    @Test func refusesAtTheOffsetWhereTheTextStopsBeingJSON() {
        let marks = String(repeating: "\u{301}", count: CombiningMarks.mostInARow + 1)
        #expect(refusal(#"{"a":"x\q"}"#) == JSONParseError(.invalidEscape, at: 7))
        #expect(refusal(#"{"a":"\u12G4"}"#) == JSONParseError(.invalidEscape, at: 10))
        #expect(refusal(#"["\ud800x"]"#) == JSONParseError(.loneSurrogate, at: 2))
        #expect(refusal(#"["abc"#) == JSONParseError(.unterminatedString, at: 5))
        #expect(refusal("[\"a\u{1}\"]") == JSONParseError(.controlCharacterInString(1), at: 3))
        #expect(refusal(#"{"a":01}"#) == JSONParseError(.invalidNumber, at: 5))
        // A key's marks are refused at its quote, before the missing colon after it.
        #expect(refusal("{\"k\(marks)\" 1}") == JSONParseError(.tooManyCombiningMarks(CombiningMarks.mostInARow), at: 1))
        #expect(refusal("[\"e\(marks)\" 1]") == JSONParseError(.tooManyCombiningMarks(CombiningMarks.mostInARow), at: 1))
        #expect(refusal(#"{"a":1 "b":2}"#) == JSONParseError(.expectedCommaOrEnd("}"), at: 7))
        #expect(refusal(#"{"a":1,}"#) == JSONParseError(.expectedKey, at: 7))
    }

    /// The typed decoder reads through the reader: an escape in a value it leaves to the tree,
    /// and a line the reader refuses is never a `FormEditLine`.
    @Test func theEditDecoderTakesTheReadersTokens() throws {
        func edit(_ line: String) -> FormEditLine? {
            Array(line.utf8).withUnsafeBufferPointer { FormEditLine.read($0, maxDepth: 64) }
        }
        let decoded = try #require(edit(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"é"},"id":-0}"#))
        #expect(decoded.value == "é" && decoded.id == .number("-0"))
        #expect(edit(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"f","value":"a\u0062"}}"#) == nil)
        #expect(edit(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"},"id":1.0}"#) == nil)
        #expect(edit(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"f","value":"v"},"id":-}"#) == nil)
    }
}
