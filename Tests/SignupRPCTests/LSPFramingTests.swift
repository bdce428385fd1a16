import Foundation
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// LSP's base protocol on stdin and stdout: `Content-Length: N\r\n` headers, a blank line, N
/// bytes; taken from the client's first bytes under `--framing auto`, or forced.
@Suite struct LSPFramingTests {
    static func frame(_ message: String, headers: String = "") -> Data {
        Data("Content-Length: \(message.utf8.count)\r\n\(headers)\r\n\(message)".utf8)
    }

    /// The messages of LSP-framed output, each checked to carry exactly its declared length.
    static func messages(in output: String) throws -> [String] {
        let bytes = Array(output.utf8)
        let prefix = Array("Content-Length: ".utf8)
        var index = 0
        var messages: [String] = []
        while index < bytes.count {
            try #require(bytes[index...].starts(with: prefix), "not a header at \(index)")
            index += prefix.count
            var length = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                length = length * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            try #require(bytes[index...].starts(with: Array("\r\n\r\n".utf8)))
            index += 4
            try #require(index + length <= bytes.count)
            messages.append(String(decoding: bytes[index..<(index + length)], as: UTF8.self))
            index += length
        }
        return messages
    }

    @Test func aClientThatFramesLikeLSPIsAnsweredLikeLSP() throws {
        let input = Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":2}}"#)
            + Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"shutdown","params":null}"#,
                         headers: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n")
            + Self.frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let output = try Subprocess.run(["--clock", "virtual"], input: input)
        #expect(try Self.messages(in: output.stdout) == [
            #"{"jsonrpc":"2.0","id":1,"result":{"now":2}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":null}"#,
        ])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
    }

    @Test func editsAndTheirEventsGoFramedAndTheNextMessageFollowsABadOne() throws {
        let input = Self.frame(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"bob"}}"#)
            + Data("Content-Length: nine\r\n\r\n".utf8)
            + Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":500"#)
            + Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":500}}"#)
        let output = try Subprocess.run(["--clock", "virtual"], input: input)
        let messages = try Self.messages(in: output.stdout)
        #expect(messages.count == 9)
        #expect(messages[4] == #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":1,"at":0}}"#)
        #expect(Array(messages.suffix(4)) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected character 'C'","data":{"offset":0}}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":67}}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":1,"at":500}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":500}}"#,
        ])
    }

    @Test func aBodyOverTheLimitIsSkippedAndAnswered() throws {
        let big = #"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"field":"username","value":""# + String(repeating: "x", count: 300) + #""}}"#
        let input = Self.frame(big) + Self.frame(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":0}}"#)
        let output = try Subprocess.run(["--clock", "virtual", "--max-line-bytes", "200"], input: input)
        #expect(try Self.messages(in: output.stdout) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Line longer than 200 bytes; it was skipped","data":{"limit":200}}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":0}}"#,
        ])
    }

    @Test func theFramingCanBeForced() throws {
        let framed = Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":0}}"#)
        // Forced to lines, LSP's headers are lines that are not JSON.
        let asLines = try Subprocess.run(["--clock", "virtual", "--framing", "lines"], input: framed)
        #expect(asLines.lines.first == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected character 'C'","data":{"offset":0}}}"#)
        // Forced to LSP, a client that starts with a stray blank line is still understood.
        let forced = try Subprocess.run(["--clock", "virtual", "--framing", "lsp"], input: Data("\r\n".utf8) + framed)
        #expect(try Self.messages(in: forced.stdout) == [#"{"jsonrpc":"2.0","id":1,"result":{"now":0}}"#])
        let wrong = try Subprocess.run(["--framing", "http"], input: Data())
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("signup-rpc: --framing takes auto, lines or lsp, not 'http'"))
    }

    @Test func detectionReadsTheFirstBytesWhereverTheReadsCutThem() {
        func items(_ chunks: [[UInt8]]) -> [String] {
            var framer = InputFramer(choice: FramingChoice(.auto), maxLineBytes: 1000)
            var messages = DecodedMessages(.generic)
            for chunk in chunks { chunk.withUnsafeBufferPointer { framer.feed($0, into: &messages) } }
            framer.finish(into: &messages)
            return messages.items.map { item in
                switch item {
                case .message(_, let bytes), .malformed(let bytes, _): return String(decoding: bytes, as: UTF8.self)
                case .edit(let edit): return "edit \(edit.field)"
                case .oversizeLine: return "oversize"
                }
            }
        }
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("content-LENGTH:  2 \r\n\r\n{}Content-Length: 1\r\n\r\n[".utf8)
        for cut in 0...input.count {
            #expect(items([Array(input[..<cut]), Array(input[cut...])]) == ["{}", "["], "cut at \(cut)")
        }
        #expect(items([Array("Content-Len".utf8)]) == ["Content-Len"])
        #expect(items([Array("{}\n".utf8)]) == ["{}"])
        #expect(LSPFrameReader.contentLength(in: Array("Content-Length: 12\r\nContent-Length: 12".utf8)[...]) == nil)
        #expect(LSPFrameReader.contentLength(in: Array("Content-Length: 99999999999999999999".utf8)[...]) == nil)
        #expect(LSPFrameReader.contentLength(in: Array("Content-Type: x\r\nContent-Length:7".utf8)[...]) == 7)
    }

    /// The header's value is read byte by byte as the text would be: the name in any ASCII case
    /// (no other character lowercases to its letters), blanks and tabs around the digits, a `\r`
    /// before each `\n` read past, and nothing else.
    @Test(arguments: [
        ("CONTENT-length:\t42 \t", 42 as Int?),
        ("X-Other: 1\nContent-Length: 3\r", 3),
        ("Content-Length: 999999999999999999", 999_999_999_999_999_999),
        ("Content-Length: 1 2", nil),
        ("Content-Length: +1", nil),
        ("Content-Length:", nil),
        ("Content\u{2010}Length: 1", nil),
        ("\u{212A}ontent-Length: 1", nil),
        ("Content-Length : 1", nil),
        ("Content-Length: 1\r\nno colon here", nil),
        ("Content-Length: 1\n", nil),
        ("Content-Type: text", nil),
    ])
    func contentLengthHeaders(header: String, length: Int?) {
        #expect(LSPFrameReader.contentLength(in: Array(header.utf8)[...]) == length)
        // The same bytes inside a larger buffer, as the reader hands them over.
        let framed = Array("ab".utf8) + Array(header.utf8)
        #expect(LSPFrameReader.contentLength(in: framed[2...]) == length)
    }
}
