import Foundation
import Testing
import SignupTestSupport

/// protocol.md §5: settling on the same value again reuses the last answer, for every check kind
/// (issue 54: an `http` check without `cacheMs` asked again).
@Suite struct RememberedAnswerTests {
    @Test func anHTTPCheckSettlingOnTheSameValueAgainIsNotAskedAgain() throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: #"{"valid":true}"#) }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("two-apis.json", HTTPStallTests.form(server))
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--forms", forms])
        let ok = #""form":"f","field":"quick","state":"ok""#
        #expect(child.send([HTTPStallTests.open("f"), HTTPStallTests.edit("f", "quick", "FRIENDS-OF-ADA")]))
        var lines = child.readLines { $0.contains(ok) }
        #expect(child.send([HTTPStallTests.edit("f", "quick", ""), HTTPStallTests.edit("f", "quick", "FRIENDS-OF-ADA")]))
        lines += child.readLines { $0.contains(ok) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        #expect(server.requests.map(\.path) == ["/ok/FRIENDS-OF-ADA"])
        let quick = lines.filter { $0.contains(#""field":"quick""#) }.compactMap { line -> String? in
            guard let state = line.range(of: #""state":""#) else { return nil }
            return String(line[state.upperBound...].prefix { $0 != "\"" })
        }
        #expect(quick == ["empty", "validating", "ok", "empty", "validating", "ok"])
    }
}
