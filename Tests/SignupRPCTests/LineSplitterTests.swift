import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

@Suite struct LineSplitterTests {
    private func split(_ chunks: [[UInt8]], limit: Int = 16, readsEdits: Bool = false) -> [String] {
        var splitter = LineSplitter(maxLineBytes: limit)
        var messages = DecodedMessages(MessageDecoder(maxDepth: 64, readsEdits: readsEdits))
        for chunk in chunks { chunk.withUnsafeBufferPointer { splitter.feed($0, into: &messages) } }
        splitter.finish(into: &messages)
        return messages.items.map { item in
            switch item {
            case .message(_, let bytes), .malformed(let bytes, _): return "line " + String(decoding: bytes, as: UTF8.self)
            case .edit(let edit): return "edit \(edit.field)=\(edit.value)"
            case .oversizeLine: return "oversize"
            }
        }
    }

    /// Every message is decoded once, where it is cut: a JSON text into its value, anything
    /// else into why reading it stopped, each with its bytes as they came.
    @Test func decodesEveryMessageOnceAsItCutsIt() {
        var splitter = LineSplitter(maxLineBytes: 200)
        var messages = DecodedMessages(MessageDecoder(maxDepth: 2, readsEdits: false))
        let input = Array((#"{"jsonrpc":"2.0","id":1,"method":"form.snapshot"}"# + "\n" + #"{"a":[[1]]}"# + "\n?x\n").utf8)
        input.withUnsafeBufferPointer { splitter.feed($0, into: &messages) }
        let items = messages.items
        #expect(items.count == 3)
        guard items.count == 3 else { return }
        guard case .message(let message, let bytes) = items[0] else { Issue.record("\(items[0])"); return }
        #expect(message == .object([
            JSON.Member(key: "jsonrpc", value: .string("2.0")), JSON.Member(key: "id", value: .number("1")),
            JSON.Member(key: "method", value: .string("form.snapshot"))]))
        #expect(bytes == Array(#"{"jsonrpc":"2.0","id":1,"method":"form.snapshot"}"#.utf8))
        guard case .malformed(let deep, let tooDeep) = items[1], case .malformed(let text, let notJSON) = items[2] else {
            Issue.record("\(items)")
            return
        }
        #expect(deep == Array(#"{"a":[[1]]}"#.utf8))
        #expect(tooDeep == JSONParseError(.tooDeep(2), at: 6))
        #expect(text == Array("?x".utf8))
        #expect(notJSON == JSONParseError(.unexpectedCharacter(UInt8(ascii: "?")), at: 0))
    }

    @Test func splitsOnNewlinesAcceptingCRLFAndSkippingBlankLines() {
        #expect(split([Array("a\r\n\nb\n  \n\r\nc\n".utf8)]) == ["line a", "line b", "line c"])
        #expect(split([Array("ab".utf8), Array("c\nd".utf8), Array("e\n".utf8)]) == ["line abc", "line de"])
    }

    @Test func readsPlainEditLinesAsItCutsThemWhenAskedTo() {
        let edit = #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"ann"}}"#
        let other = #"{"jsonrpc":"2.0","id":1,"method":"form.snapshot"}"#
        let input = [Array((edit + "\r\n" + other + "\n" + edit.replacingOccurrences(of: "ann", with: "a\\u006En") + "\n").utf8)]
        #expect(split(input, limit: 200, readsEdits: true) == ["edit username=ann", "line " + other, "line " + edit.replacingOccurrences(of: "ann", with: "a\\u006En")])
        #expect(split(input, limit: 200) == ["line " + edit, "line " + other, "line " + edit.replacingOccurrences(of: "ann", with: "a\\u006En")])
    }

    @Test func skipsAByteOrderMarkOnlyAtTheStartOfTheStream() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(split([bom + Array("a\n".utf8) + bom + Array("b\n".utf8)])
            == ["line a", "line " + String(decoding: bom + Array("b".utf8), as: UTF8.self)])
        #expect(split([[0xEF], [0xBB, 0xBF, 0x61, 0x0A]]) == ["line a"])
    }

    @Test func anOversizeLineIsReportedOnceAndTheNextLineIsIntact() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
        #expect(split([long, long, Array("\nok\n".utf8)]) == ["oversize", "line ok"])
        #expect(split([Array(String(repeating: "y", count: 16).utf8) + Array("\r\n".utf8)])
            == ["line " + String(repeating: "y", count: 16)])
        #expect(split([Array(String(repeating: "y", count: 17).utf8) + [0x0A]]) == ["oversize"])
        #expect(split([long]) == ["oversize"])
    }

    /// The JSON Lines convention: what follows the last newline is a last line like any other.
    @Test func bytesAfterTheLastNewlineAreALastLine() {
        #expect(split([Array("a\n{\"x\"".utf8)]) == ["line a", "line {\"x\""])
        #expect(split([Array("a\n  ".utf8)]) == ["line a"])
        #expect(split([Array("a\nb\r".utf8)]) == ["line a", "line b"])
        #expect(split([[0xEF, 0xBB, 0xBF] + Array("c".utf8)]) == ["line c"])
    }

    /// Lines found whole in one read are read in place, the others gathered first: both must
    /// give the same items wherever the reads cut the input.
    @Test func theItemsDoNotDependOnWhereTheInputIsCut() {
        let edit = #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"ann"}}"#
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((edit + "\r\n\n  \n" + String(repeating: "z", count: 120) + "\r\n"
            + String(repeating: "w", count: 99) + "\r\n" + edit + "\n{\"tail\"").utf8)
        let whole = split([input], limit: 99, readsEdits: true)
        #expect(whole == ["edit username=ann", "oversize", "line " + String(repeating: "w", count: 99), "edit username=ann", "line {\"tail\""])
        for cut in 0...input.count {
            #expect(split([Array(input[..<cut]), Array(input[cut...])], limit: 99, readsEdits: true) == whole, "cut at \(cut)")
        }
        #expect(split(input.map { [$0] }, limit: 99, readsEdits: true) == whole)
    }
}
