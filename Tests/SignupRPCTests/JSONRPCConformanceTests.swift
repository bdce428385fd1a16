import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// JSON-RPC 2.0, rule by rule, with the exact bytes the server answers.
@Suite struct JSONRPCConformanceTests {
    private let ping = #"{"jsonrpc":"2.0","id":9,"method":"clock.advance","params":{"by":0}}"#
    private let pong = #"{"jsonrpc":"2.0","id":9,"result":{"now":0}}"#

    @Test func aParseErrorIsAnsweredWithIdNullAndTheNextLineIsServed() {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method""#) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":32}}}"#,
        ])
        #expect(harness.send(ping) == [pong])
    }

    @Test func invalidUTF8AndTrailingGarbageAreParseErrors() {
        let harness = ServerHarness()
        let invalid: [UInt8] = Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)
        #expect(harness.send(invalid) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid UTF-8","data":{"offset":34}}}"#,
        ])
        #expect(harness.send(ping + " x") == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected characters after the JSON value (one message per line)","data":{"offset":68}}}"#,
        ])
        #expect(harness.send(ping) == [pong])
    }

    @Test(arguments: [
        (#""abc""#, #""abc""#),
        ("7", "7"),
        ("-3", "-3"),
        ("1.50", "1.50"),
        ("12345678901234567890123", "12345678901234567890123"),
        ("1e3", "1e3"),
        ("null", "null"),
        (#""\u00e9t\u00e9""#, #""été""#),
    ])
    func theIdIsEchoedWithItsExactTypeAndValue(id: String, echoed: String) {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"clock.advance","params":{"by":0}}"#)
            == [#"{"jsonrpc":"2.0","id":\#(echoed),"result":{"now":0}}"#])
    }

    @Test func anIdOfAnotherTypeMakesTheRequestInvalid() {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","id":true,"method":"clock.advance"}"#) == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: id must be a string, a number or null, not boolean"}}"#,
        ])
    }

    @Test(arguments: [
        (#"{"jsonrpc":"1.0","id":1,"method":"x"}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: jsonrpc must be \"2.0\""}}"#),
        (#"{"id":1,"method":"x"}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: jsonrpc must be \"2.0\""}}"#),
        (#"{"jsonrpc":"2.0","id":1,"method":5}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: method must be a string, not number"}}"#),
        (#"{"jsonrpc":"2.0","id":1}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: method is missing"}}"#),
        (#"{"jsonrpc":"2.0","method":"form.edit","params":"bar"}"#, #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: params must be an object, an array or null, not string"}}"#),
        (#"{"jsonrpc":"2.0","id":1,"method":"x","extra":1}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: unknown member 'extra' (members are jsonrpc, id, method and params)"}}"#),
        (#"{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}"#, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request: member 'id' appears more than once"}}"#),
        ("42", #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object, not number"}}"#),
    ])
    func invalidRequestsAreAnsweredEvenWithoutAnId(line: String, response: String) {
        let harness = ServerHarness()
        #expect(harness.send(line) == [response])
        #expect(harness.send(ping) == [pong])
    }

    @Test func unknownMethodsAndBadParamsAreErrorsForRequestsAndSilentForNotifications() {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"form.explode"}"#) == [
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: form.explode","data":{"method":"form.explode"}}}"#,
        ])
        #expect(harness.send(#"{"jsonrpc":"2.0","method":"form.explode"}"#) == [])
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":[1]}"#) == [
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: params must be an object with named members, not an array","data":{"member":"params","problem":"must be an object with named members, not an array"}}}"#,
        ])
        #expect(harness.send(#"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"by":-1}}"#) == [
            #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: params.by must be a whole number of 0 or more, not -1","data":{"member":"params.by","problem":"must be a whole number of 0 or more, not -1"}}}"#,
        ])
        #expect(harness.send(#"{"jsonrpc":"2.0","id":4,"method":"clock.advance","params":{"by":1,"bye":2}}"#) == [
            #"{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: params.bye is not a parameter of this method (it takes by, exclusive, to)","data":{"member":"params.bye","problem":"is not a parameter of this method (it takes by, exclusive, to)"}}}"#,
        ])
        #expect(harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":5}}"#) == [])
        #expect(harness.send(ping) == [pong])
    }

    @Test func aBatchIsAnsweredWithOneArrayInOrderLeavingOutNotifications() {
        let harness = ServerHarness()
        let batch = "[" + [
            #"{"jsonrpc":"2.0","id":"a","method":"clock.advance","params":{"by":5}}"#,
            #"{"jsonrpc":"2.0","method":"clock.advance","params":{"by":5}}"#,
            #"{"jsonrpc":"2.0","id":"b","method":"nope"}"#,
            "1",
            #"{"jsonrpc":"2.0","id":"c","method":"clock.advance","params":{"by":0}}"#,
        ].joined(separator: ",") + "]"
        #expect(harness.send(batch) == [
            "[" + [
                #"{"jsonrpc":"2.0","id":"a","result":{"now":5}}"#,
                #"{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"Method not found: nope","data":{"method":"nope"}}}"#,
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object, not number"}}"#,
                #"{"jsonrpc":"2.0","id":"c","result":{"now":10}}"#,
            ].joined(separator: ",") + "]",
        ])
    }

    @Test func batchEdgeCases() {
        let harness = ServerHarness { $0.limits.maxBatch = 2 }
        #expect(harness.send("[]") == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: an empty batch holds no messages"}}"#,
        ])
        #expect(harness.send(#"[{"jsonrpc":"2.0","method":"clock.advance","params":{"by":1}}]"#) == [])
        #expect(harness.send("[1,2]") == [
            #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object, not number"}},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: a message must be a JSON object, not number"}}]"#,
        ])
        #expect(harness.send("[1,2,3]") == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32023,"message":"A batch may hold at most 2 messages","data":{"limit":2}}}"#,
        ])
    }

    @Test func afterShutdownOnlyExitIsAccepted() {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#) == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
        #expect(harness.send(ping) == [
            #"{"jsonrpc":"2.0","id":9,"error":{"code":-32003,"message":"The server is shutting down; only exit is accepted"}}"#,
        ])
        #expect(harness.server.exitCode == nil)
        #expect(harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#) == [])
        #expect(harness.server.exitCode == 0)
        #expect(harness.send(ping) == [])
    }

    @Test func exitWithoutShutdownExitsWithOne() {
        let harness = ServerHarness()
        #expect(harness.send(#"{"jsonrpc":"2.0","method":"exit"}"#) == [])
        #expect(harness.server.exitCode == 1)
    }

    @Test func initializeIsOptionalButOnlyOnce() {
        let harness = ServerHarness()
        let first = harness.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":123,"clientInfo":{"name":"t"}}}"#)
        #expect(first.count == 1 && first[0].hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"signup-rpc","version":"0.1.0"},"protocolVersion":"1.0","locale":"en","capabilities":{"forms":[{"kind":"signup","fields":[{"name":"username","required":true,"secret":false,"remoteCheck":"usernameAvailability"}"#))
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"initialize"}"#) == [
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32004,"message":"initialize may be sent only once"}}"#,
        ])
    }
}
