import Foundation
import Testing
import SignupTestSupport

/// The HTTP backend through the real binary and a loopback server.
@Suite struct HTTPEndToEndTests {
    @Test func signUpAgainstTheApplicationsServer() throws {
        let server = try LoopbackHTTPServer { request in
            switch (request.method, request.path) {
            case ("GET", "/users/octocat"): return .respond(status: 200)
            case ("GET", "/users/flaky"): return .respond(status: 500)
            case ("GET", _): return .respond(status: 404)
            case ("POST", "/signup") where request.body.contains(#""username":"grace""#):
                return .respond(status: 201, body: #"{"username":"grace","id":7}"#)
            default: return .respond(status: 503)
            }
        }
        defer { server.stop() }
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0",
            "--availability-url", server.url("/users/{username}"), "--signup-url", server.url("/signup"),
        ])
        func fieldResult(_ value: String) -> String {
            child.send([#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"\#(value)"}}"#])
            return child.readLines { $0.contains(#""field":"username""#) && !$0.contains("username.checking") && !$0.contains("username.empty") }.last!
        }
        #expect(fieldResult("octocat").contains(#""state":"failed","code":"username.taken""#))
        #expect(fieldResult("flaky").contains(#""state":"failed","code":"backend.unavailable","params":{},"message":"Error contacting server""#))
        #expect(fieldResult("grace").contains(#""state":"ok","code":"username.available""#))
        child.send([
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"password","value":"hunter22"}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"repeatedPassword","value":"hunter22"}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit"}"#,
        ])
        let succeeded = child.readLines { $0.contains(#""state":"succeeded""#) }.last!
        #expect(succeeded.contains(#""state":"succeeded","account":{"id":7,"username":"grace"}"#))

        _ = fieldResult("henry")
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.submit"}"#])
        let failed = child.readLines { $0.contains(#""state":"failed""#) && $0.contains("submissionChanged") }.last!
        #expect(failed.contains(#""state":"failed","code":"signup.failed","params":{"status":503},"message":"Sign-up failed, please try again""#))
        child.closeInput()
        #expect(child.wait() == 0)
        #expect(server.requests.filter { $0.method == "POST" }.map(\.path) == ["/signup", "/signup"])
    }
}
