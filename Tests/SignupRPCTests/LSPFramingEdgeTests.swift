import Foundation
import Testing

/// Issue 36 §4: LSP framing's edges each get one documented answer, and the next message is served.
@Suite struct LSPFramingEdgeTests {
    static let advance = LSPFramingTests.frame(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":1}}"#)
    static let tooLong = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Line longer than 1048576 bytes; it was skipped","data":{"limit":1048576}}}"#

    private func served(_ input: Data) throws -> [String] {
        let output = try Subprocess.run(["--clock", "virtual", "--framing", "lsp"], input: input)
        #expect(output.status == 0)
        return try LSPFramingTests.messages(in: output.stdout)
    }

    @Test(arguments: [
        ("many short headers", String(repeating: "X-Padding: 1\r\n", count: 10_000)),
        ("one long header line", "X-Padding: " + String(repeating: "y", count: 2 << 20) + "\r\n"),
    ])
    func aHeaderBlockOverItsLimitIsAnsweredOnceAndItsBodySkipped(_ name: String, headers: String) throws {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}"#
        let input = Data("\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) + Self.advance
        #expect(try served(input) == [Self.tooLong, #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#])
    }

    @Test func aJSONLineBeforeAFramedMessageIsServed() throws {
        let input = Data(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}"#.utf8 + [0x0A]) + Self.advance
        #expect(try served(input) == [#"{"jsonrpc":"2.0","id":1,"result":{"now":5}}"#, #"{"jsonrpc":"2.0","id":2,"result":{"now":6}}"#])
    }

    @Test func aBareJSONTextFollowedByABlankLineIsServedAsALine() throws {
        let input = Data(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}"#.utf8 + [0x0D, 0x0A, 0x0D, 0x0A]) + Self.advance
        #expect(try served(input) == [#"{"jsonrpc":"2.0","id":1,"result":{"now":5}}"#, #"{"jsonrpc":"2.0","id":2,"result":{"now":6}}"#])
    }

    @Test func aJSONLineOverTheLineLimitIsAnsweredOnceAndTheNextMessageServed() throws {
        let output = try Subprocess.run(
            ["--clock", "virtual", "--framing", "lsp", "--max-line-bytes", "100"],
            input: Data(("[" + String(repeating: "1,", count: 5000) + "1]\n").utf8) + Self.advance)
        #expect(try LSPFramingTests.messages(in: output.stdout) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"Line longer than 100 bytes; it was skipped","data":{"limit":100}}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#,
        ])
    }

    /// protocol.md §1: a header block that is not valid is answered as text at offset 0 (its
    /// first character named), and the next framed message is served; a valid one, however its
    /// name is written and its value padded, frames its body.
    @Test(arguments: [
        ("Content-Length: 68\r\nContent-Length: 68", "C"),
        ("Content-Length: 0000000000000000068", "C"),
        ("Content-Length: +68", "C"),
        ("Content-Length: 6 8", "C"),
        ("X-Note\r\nContent-Length: 68", "X"),
        ("Content-Length : 68", "C"),
        ("Content-Type: x", "C"),
    ])
    func aHeaderBlockThatIsNotValidIsAnsweredAsText(_ header: String, first: String) throws {
        let input = Data("\(header)\r\n\r\n".utf8) + Self.advance
        #expect(try served(input) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected character '\#(first)'","data":{"offset":0}}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#,
        ])
    }

    @Test(arguments: ["content-LENGTH:\t68 \t", "Content-Length: 000000000000000068", "Content-Type: x\nContent-Length: 68"])
    func aValidHeaderBlockFramesItsBody(_ header: String) throws {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":50}}"#
        #expect(body.utf8.count == 68)
        let input = Data("\(header)\r\n\r\n\(body)".utf8) + Self.advance
        #expect(try served(input) == [#"{"jsonrpc":"2.0","id":1,"result":{"now":50}}"#, #"{"jsonrpc":"2.0","id":2,"result":{"now":51}}"#])
    }

    @Test func aBodyOfNoBytesIsAnEmptyText() throws {
        #expect(try served(Data("Content-Length: 0\r\n\r\n".utf8) + Self.advance) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":0}}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#,
        ])
    }

    /// A body cut off by the end of input is a parse error whether no byte of it came or one did.
    @Test(arguments: ["", "{"])
    func aBodyCutOffIsAParseErrorWhereverItStops(_ received: String) throws {
        let input = Self.advance + Data("Content-Length: 10\r\n\r\n\(received)".utf8)
        #expect(try served(input) == [
            #"{"jsonrpc":"2.0","id":2,"result":{"now":1}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":\#(received.utf8.count)}}}"#,
        ])
    }
}
