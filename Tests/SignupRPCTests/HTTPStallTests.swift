import Foundation
import Testing
import SignupTestSupport

/// One slow API cannot stall the others (issue 54): every HTTP exchange of the process shares one
/// libcurl multi engine, so a hundred hung requests are all on the wire at once, a healthy check
/// asked after them is answered while they hang, and each hung one fails at its own timeout,
/// counted from when it was sent, and is ended on the wire.
@Suite struct HTTPStallTests {
    static let hung = 100

    static func form(_ server: LoopbackHTTPServer) -> String {
        func check(_ path: String) -> String {
            #"{"name":"c","kind":"http","url":""# + server.url(path) + #"","timeoutMs":3000,"#
                + #""validating":{"code":"c","message":"Checking..."},"passed":{"code":"p","message":"Fine"},"#
                + #""rejected":{"code":"r","message":"No"},"unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}"#
        }
        return #"{"kind":"two-apis","fields":[{"name":"slow","remoteChecks":["# + check("/hang/{value}")
            + #"]},{"name":"quick","remoteChecks":["# + check("/ok/{value}") + "]}],"
            + #""submit":{"action":"http","url":""# + server.url("/accounts") + #"","messages":{"#
            + #""refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}"#
    }

    static func open(_ form: String) -> String {
        #"{"jsonrpc":"2.0","id":"\#(form)","method":"form.open","params":{"kind":"two-apis","form":"\#(form)"}}"#
    }

    static func edit(_ form: String, _ field: String, _ value: String) -> String {
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(value)"}}"#
    }

    @Test func aHundredHungRequestsAreAllSentAndStallNoOtherCheck() throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasPrefix("/hang/") ? .respond(status: 200, body: #"{"valid":true}"#, after: 60_000)
                : .respond(status: 200, body: #"{"valid":true}"#)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("two-apis.json", Self.form(server))
        let child = try InteractiveProcess(
            ["--clock", "real", "--debounce-ms", "0", "--session-checks-per-minute", "0", "--forms", forms],
            environment: ["SIGNUP_HTTP_USER_AGENT": "signup-rpc-tests/1"])
        // A hundred forms each ask the hung API.
        let slowForms = (0..<Self.hung).map { "slow\($0)" }
        #expect(child.send(slowForms.flatMap { [Self.open($0), Self.edit($0, "slow", $0)] }))
        // Every one of them reaches the API at once, long before any could time out.
        while server.requests.count < Self.hung, server.waitForRequest(atMost: 10) {}
        #expect(Set(server.requests.map(\.path)) == Set(slowForms.map { "/hang/\($0)" }))
        // Another form's check against the healthy API is answered while they hang.
        #expect(child.send([Self.open("quick"), Self.edit("quick", "quick", "ann")]))
        var lines = child.readLines { $0.contains(#""form":"quick","field":"quick","state":"ok""#) }
        #expect(!lines.contains { $0.contains(#""code":"backend.unavailable""#) })
        // Then each hung check fails at its own timeout, and its request is ended on the wire.
        lines += child.readLines(count: Self.hung) { $0.contains(#""field":"slow","state":"failed","code":"backend.unavailable""#) }
        let failed = lines.filter { $0.contains(#""field":"slow","state":"failed","code":"backend.unavailable""#) }
        #expect(Set(failed.compactMap(Self.form(of:))) == Set(slowForms))
        while server.aborted.count < Self.hung, server.waitForAbort(atMost: 10) {}
        #expect(Set(server.aborted) == Set(slowForms.map { "/hang/\($0)" }))
        // Every request named itself, as the user agent set for the process.
        #expect(server.requests.allSatisfy { $0.headers["user-agent"] == "signup-rpc-tests/1" })
        child.closeInput()
        _ = child.readToEnd()
        #expect(child.wait(atMost: 30) == 0)
    }

    @Test func everyRequestCarriesTheDefaultUserAgent() throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: #"{"valid":true}"#) }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("two-apis.json", Self.form(server))
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--forms", forms])
        #expect(child.send([Self.open("f"), Self.edit("f", "quick", "ann")]))
        _ = child.readLines { $0.contains(#""field":"quick","state":"ok""#) }
        child.closeInput()
        _ = child.readToEnd()
        #expect(child.wait(atMost: 30) == 0)
        #expect(server.requests.map { $0.headers["user-agent"] } == ["signup-rpc/0.1.0"])
    }

    private static func form(of line: String) -> String? {
        guard let start = line.range(of: #""form":""#) else { return nil }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }
}
