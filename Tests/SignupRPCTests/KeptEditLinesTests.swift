import Foundation
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The plain edits' lines the reader keeps for a recording (`KeptEditLines`), and how the
/// recording writes them.
@Suite struct KeptEditLinesTests {
    /// Each kept line as text, with its form, field and value as found in it.
    private static func read(_ kept: KeptEditLines) -> [String] {
        var offset = 0
        var lines: [String] = []
        for _ in 0..<kept.count {
            offset = kept.line(at: offset) { line in
                func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }
                let value = text(UnsafeRawBufferPointer(rebasing: line.line[line.value]))
                lines.append("\(text(line.line)) | form=\(line.form.map(text) ?? "nil") hash=\(line.formHash) field=\(text(line.field)) value=\(value)")
            }
        }
        return lines
    }

    @Test func plainEditsAreKeptAsReadWithTheirPartsAndOtherLinesAreNot() {
        let canonical = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f1","field":"password","value":"sé cret","at":5},"id":3}"#
        let spaced = #" { "params" : { "value" : "v" , "field":"username" } , "method":"form.edit", "jsonrpc":"2.0" } "#
        let escaped = #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"a\"b"}}"#
        let open = #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"f1"}}"#
        // The BOM and `\r` are not the line's; the canonical line is cut across two reads.
        let stream = Array("\u{FEFF}\(canonical)\r\n\(open)\n\(spaced)\n\(escaped)\n".utf8)
        var splitter = LineSplitter(maxLineBytes: 4096)
        let kept = KeptEditLines(readBytes: 16)
        var messages = DecodedMessages(MessageDecoder(maxDepth: 64), keepingEditsIn: kept)
        stream.withUnsafeBufferPointer { bytes in
            splitter.feed(UnsafeBufferPointer(rebasing: bytes[..<40]), into: &messages)
            splitter.feed(UnsafeBufferPointer(rebasing: bytes[40...]), into: &messages)
        }
        #expect(messages.items.map { if case .edit = $0 { "edit" } else { "line" } } == ["edit", "line", "edit", "line"])
        #expect(Self.read(kept) == [
            #"\#(canonical) | form=f1 hash=\#(FormIDHash.process("f1")) field=password value="sé cret""#,
            #"\#(spaced) | form=nil hash=0 field=username value="v""#,
        ])
    }

    @Test func anLSPBodyIsKeptAsItsLine() {
        let body = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"x","field":"username","value":"ada"}}"#
        let stream = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        var framer = InputFramer(choice: FramingChoice(.auto), maxLineBytes: 4096)
        let kept = KeptEditLines()
        var messages = DecodedMessages(MessageDecoder(maxDepth: 64), keepingEditsIn: kept)
        stream.withUnsafeBufferPointer { framer.feed($0, into: &messages) }
        #expect(messages.items.count == 1)
        #expect(Self.read(kept) == [#"\#(body) | form=x hash=\#(FormIDHash.process("x")) field=username value="ada""#])
    }

    /// A kept edit is written as the client sent it, members and spaces as they came, with only a
    /// secret's value replaced, and the recording replays to the same messages.
    @Test func aRecordingKeepsEditsAsSentAndReplacesOnlyTheirSecrets() throws {
        let spaced = #"{ "params": {"form":"s", "value": "Hunter-2024", "field": "password", "at": 10}, "method": "form.edit", "jsonrpc": "2.0", "id": 4 }"#
        let plain = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"username","value":"ada","at":20},"id":5}"#
        let input = [#"{"jsonrpc":"2.0","method":"form.open","params":{"form":"s"}}"#, spaced, plain].joined(separator: "\n") + "\n"
        let run = try FixtureRun(input: Array(input.utf8), flags: [], recording: true)
        let ins = String(decoding: run.recording, as: UTF8.self).split(separator: "\n").filter { $0.contains(#""in":"#) }
        #expect(ins.count == 3)
        let hidden = String(try #require(ins.dropFirst().first))
        let (before, after) = (#"{ "params": {"form":"s", "value": "#, #", "field": "password", "at": 10}, "method": "form.edit", "jsonrpc": "2.0", "id": 4 }"#)
        #expect(hidden.hasPrefix(#"{"t":0,"in":"# + before) && hidden.hasSuffix(after + "}"))
        let message = try JSONParser.parse(Array(hidden.utf8), maxDepth: 64)
        guard case .string(let placeholder)? = message["in"]?["params"]?["value"] else { Issue.record("no value"); return }
        #expect(placeholder.count == 11 && placeholder != "Hunter-2024" && !hidden.contains("Hunter-2024"))
        #expect(ins.last == #"{"t":10,"in":\#(plain)}"#)
        let recording = try Recording.read(run.recording)
        #expect(try Replayer(recording: recording).run().divergence == nil)
    }
}
