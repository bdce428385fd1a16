import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSON {
        try JSONParser.parse(Array(text.utf8))
    }

    private func reason(_ bytes: [UInt8]) -> JSONParseError.Reason? {
        do throws(JSONParseError) {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func parsesEveryKindOfValueKeepingNumberTextAndMemberOrder() throws {
        let value = try parse(#" {"b":[true,false,null],"a":-0.5e+10,"s":"x","o":{}} "#)
        #expect(value == .object([
            .init(key: "b", value: .array([.bool(true), .bool(false), .null])),
            .init(key: "a", value: .number("-0.5e+10")),
            .init(key: "s", value: .string("x")),
            .init(key: "o", value: .object([])),
        ]))
        #expect(try parse("-0") == .number("-0"))
        #expect(try parse("1e999") == .number("1e999"))
        let long = String(repeating: "9", count: 10_000)
        #expect(try parse(long) == .number(long))
    }

    @Test func decodesEveryEscape() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u4e2d\ud83d\ude00""#) == .string("\"\\/\u{8}\u{c}\n\r\tAé中😀"))
        #expect(try parse("\"中文 ✓\"") == .string("中文 ✓"))
    }

    @Test func rejectsWhatIsNotStrictJSON() {
        #expect(reason(Array(#""\ud800""#.utf8)) == .loneSurrogate)
        #expect(reason(Array(#""\udc00x""#.utf8)) == .loneSurrogate)
        #expect(reason(Array(#""\ud800\u0041""#.utf8)) == .loneSurrogate)
        #expect(reason(Array(#""\x""#.utf8)) == .invalidEscape)
        #expect(reason([0x22, 0xC0, 0xAF, 0x22]) == .invalidUTF8)            // overlong "/"
        #expect(reason([0x22, 0xE0, 0x80, 0xAF, 0x22]) == .invalidUTF8)      // overlong, three bytes
        #expect(reason([0x22, 0xED, 0xA0, 0x80, 0x22]) == .invalidUTF8)      // encoded surrogate
        #expect(reason([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]) == .invalidUTF8) // past U+10FFFF
        #expect(reason([0x22, 0xFF, 0x22]) == .invalidUTF8)
        #expect(reason([0x22, 0x00, 0x22]) == .controlCharacterInString(0))
        #expect(reason([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .unexpectedCharacter(0xEF))
        #expect(reason(Array("01".utf8)) == .invalidNumber)
        #expect(reason(Array("1.".utf8)) == .invalidNumber)
        #expect(reason(Array("-".utf8)) == .invalidNumber)
        #expect(reason(Array("+1".utf8)) == .unexpectedCharacter(UInt8(ascii: "+")))
        #expect(reason(Array("tru".utf8)) == .unexpectedEnd)
        #expect(reason(Array("nul!".utf8)) == .invalidLiteral)
        #expect(reason(Array("{} {}".utf8)) == .trailingCharacters)
        #expect(reason(Array(#"{"a" 1}"#.utf8)) == .expectedColon)
        #expect(reason(Array("{1:2}".utf8)) == .expectedKey)
        #expect(reason(Array("[1 2]".utf8)) == .expectedCommaOrEnd("]"))
        #expect(reason(Array("".utf8)) == .unexpectedEnd)
    }

    @Test func limitsNestingWithoutRecursingIntoIt() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(reason(deep) == .tooDeep(64))
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(reason(Array(allowed.utf8)) == nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(reason(Array(tooDeep.utf8)) == .tooDeep(64))
    }

    @Test func theWriterEscapesAndRoundTrips() throws {
        var writer = JSONWriter()
        writer.object {
            $0.key("t"); $0.string("q\"\\\n\u{1}é")
            $0.key("v"); $0.value(.object(["b": 1, "a": .array([.null, .bool(true), .string("x")])]))
        }
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"t":"q\"\\\n\u0001é","v":{"a":[null,true,"x"],"b":1}}"#)
        #expect(try parse(text)["t"] == .string("q\"\\\n\u{1}é"))
    }

    @Test func integersAreWrittenInFullAtEitherExtreme() {
        var writer = JSONWriter()
        writer.array {
            for value: Int64 in [0, 7, -7, 1_234_567_890, .max, .min] { $0.int(value) }
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == "[0,7,-7,1234567890,9223372036854775807,-9223372036854775808]")
    }
}
