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

    @Test func logInAndSaveFriendsAgainstTheApplicationsServer() throws {
        let server = try LoopbackHTTPServer { request in
            switch (request.method, request.path) {
            case ("POST", "/login") where request.body.contains(#""password":"Hopper-1906""#):
                return .respond(status: 200, body: #"{"token":"opaque-123"}"#)
            case ("POST", "/login") where request.body.contains(#""username":"flood""#): return .respond(status: 429)
            case ("POST", "/login"): return .respond(status: 401)
            case ("POST", "/friends"): return .respond(status: 201, body: #"{"id":"f-9"}"#)
            case ("PATCH", "/friends/f-9"): return .respond(status: 401)
            default: return .respond(status: 404)
            }
        }
        defer { server.stop() }
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0",
            "--availability-url", server.url("/users/{username}"), "--signup-url", server.url("/signup"),
            "--login-url", server.url("/login"), "--friends-url", server.url("/friends"),
        ])
        func logIn(_ id: Int, _ username: String, _ password: String) -> String {
            child.send([
                #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"l","field":"username","value":"\#(username)"}}"#,
                #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"l","field":"password","value":"\#(password)"}}"#,
                #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"l"}}"#,
            ])
            return child.readLines { $0.contains("submissionChanged") && !$0.contains("loggingIn") }.last!
        }
        child.send([#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"login","form":"l"}}"#])
        #expect(logIn(1, "grace", "nope").contains(#""state":"loginFailed","code":"login.wrongCredentials""#))
        #expect(logIn(2, "flood", "nope").contains(#""state":"loginFailed","code":"login.rateLimited""#))
        #expect(logIn(3, "grace", "Hopper-1906").contains(#""state":"loggedIn","account":{"token":"opaque-123","username":"grace"}"#))

        child.send([
            #"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"friend","form":"f","values":{"firstName":"Ada","lastName":"Lovelace","phone":"+442079460000"}}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"form.submit","params":{"form":"f"}}"#,
        ])
        let added = child.readLines { $0.contains("submissionChanged") && !$0.contains("submitting") }.last!
        #expect(added.contains(#""state":"succeeded","friend":{"firstName":"Ada","id":"f-9","lastName":"Lovelace","phone":"+442079460000"}"#))
        child.send([
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"lastName","value":"King"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"form.submit","params":{"form":"f"}}"#,
        ])
        let updated = child.readLines { $0.contains("submissionChanged") && !$0.contains("submitting") }.last!
        #expect(updated.contains(#""state":"failed","code":"friend.unauthorised","params":{},"message":"You are not allowed to change this friend""#))
        child.closeInput()
        #expect(child.wait() == 0)
        #expect(server.requests.map { "\($0.method) \($0.path)" } == [
            "POST /login", "POST /login", "POST /login", "POST /friends", "PATCH /friends/f-9",
        ])
        #expect(!server.requests.contains { $0.body.contains("nope") && $0.path != "/login" })
    }
}
