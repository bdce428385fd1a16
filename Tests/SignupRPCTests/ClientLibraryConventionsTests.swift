import Foundation
import Testing

/// What JSON-RPC and LSP client libraries send as a matter of course is understood as they mean
/// it: `params: null`, `params: []` for a method without params, LSP's `initialize` members and
/// `initialized`, `$/` notifications, and a last message without its newline.
@Suite struct ClientLibraryConventionsTests {
    private func run(_ lines: [String], endingWithNewline: Bool = true, flags: [String] = []) throws -> Subprocess.Output {
        let text = lines.joined(separator: "\n") + (endingWithNewline ? "\n" : "")
        return try Subprocess.run(["--clock", "virtual", "--log-level", "warning"] + flags, input: Data(text.utf8))
    }

    @Test func paramsNullIsNoParamsSoShutdownAndExitEndTheProcessWithZero() throws {
        let output = try run([
            #"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}"#,
            #"{"jsonrpc":"2.0","method":"exit","params":null}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":1}}"#,
        ])
        #expect(output.lines == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
    }

    @Test func paramsNullWorksForEveryMethodAndAnEmptyArrayForThoseWithoutParams() throws {
        let output = try run([
            #"{"jsonrpc":"2.0","id":1,"method":"form.snapshot","params":null}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":null}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":[]}"#,
            #"{"jsonrpc":"2.0","method":"exit","params":[]}"#,
        ])
        // The default form's opening events, the snapshot, then the two answers.
        #expect(output.lines.count == 7)
        #expect(output.lines[4].hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"form":"default","kind":"signup","version":0,"fields":["#))
        #expect(Array(output.lines.suffix(2)) == [
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: params needs either by or to","data":{"member":"params","problem":"needs either by or to"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"result":null}"#,
        ])
        #expect(output.status == 0)
    }

    @Test func anEmptyArrayIsStillRefusedWhereAMethodHasParams() throws {
        let output = try run([#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":[]}"#])
        #expect(output.lines == [
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: params must be an object with named members, not an array","data":{"member":"params","problem":"must be an object with named members, not an array"}}}"#,
        ])
    }

    @Test func anLSPClientsInitializeAndInitializedAreAccepted() throws {
        let output = try run([
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"clientInfo":{"name":"pygls","version":"2"},"rootUri":null,"rootPath":null,"trace":"off","workspaceFolders":null,"locale":"en","capabilities":{"textDocument":{"hover":{}},"general":{"positionEncodings":["utf-16"]}}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"initialized"}"#,
        ])
        #expect(output.lines.count == 2)
        #expect(output.lines.first?.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"signup-rpc","#) == true)
        #expect(output.lines.last == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
        #expect(output.stderr.isEmpty)
    }

    @Test func dollarNotificationsAreIgnoredQuietlyAndDollarRequestsAreUnknown() throws {
        let output = try run([
            #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#,
            #"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"$/progress","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"form.frobnicate"}"#,
        ])
        #expect(output.lines == [
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: $/progress","data":{"method":"$/progress"}}}"#,
        ])
        // Only the unknown method that is not `$/` is worth a warning.
        #expect(output.stderr == "signup-rpc: warning: notification form.frobnicate failed: Method not found: form.frobnicate\n")
    }

    @Test func aLastMessageWithoutItsNewlineIsStillAMessage() throws {
        let output = try run([
            #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":1}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"by":2}}"#,
        ], endingWithNewline: false)
        #expect(output.lines == [
            #"{"jsonrpc":"2.0","id":1,"result":{"now":1}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"now":3}}"#,
        ])
        #expect(output.status == 0)
    }
}
