import Foundation
import Testing
import SignupCore
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// A form's own API asked live (issue 37): `http` checks through the whole server in real time,
/// against a server on loopback, recorded and traced. The API's token (from the environment) and
/// the password a check sends reach the API and nothing else: not stdout, stderr, the trace or
/// the recording, which replays to the same events.
@Suite struct HTTPCheckEndToEndTests {
    static let token = "tok-ENV-SECRET-99"
    static let password = "Password123!"

    /// An invite checked against the e-mail; a password checked against a breach list by POST.
    static func form(_ server: LoopbackHTTPServer) -> String {
        let messages = #""validating":{"code":"c","message":"Checking..."},"passed":{"code":"p","message":"Fine"},"rejected":{"code":"r","message":"No"},"unavailable":{"code":"backend.unavailable","message":"Error contacting server"}"#
        return """
            {"kind":"invite-live","fields":[
              {"name":"email"},
              {"name":"invite","remoteChecks":[{"name":"invite","kind":"http","url":"\(server.url("/invites/{value}?email={email}"))",
                "headers":{"Authorization":{"env":"INVITE_API_TOKEN","prefix":"Bearer "}},\(messages)}]},
              {"name":"username"},
              {"name":"password","secret":true,"remoteChecks":[{"name":"breached","kind":"http","method":"POST",
                "url":"\(server.url("/passwords"))","body":{"candidate":"{value}"},\(messages)}]}],
             "submit":{"action":"http","url":"\(server.url("/accounts"))","secretMembers":["token"],
               "headers":{"Authorization":{"env":"INVITE_API_TOKEN","prefix":"Bearer "}},
               "messages":{"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
            """
    }

    static func edit(_ field: String, _ value: String) -> String {
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":""# + field + #"","value":""# + value + #""}}"#
    }

    @Test func liveChecksShowTheAPIsAnswersAndKeepItsSecretsOutOfEveryOutput() throws {
        let server = try LoopbackHTTPServer { request in
            guard request.headers["authorization"] == "Bearer \(Self.token)" || request.path == "/passwords" else { return .respond(status: 401) }
            if request.path.hasPrefix("/invites/OLDX") {
                return .respond(status: 200, body: #"{"valid":false,"code":"invite.expired","message":"Expired on {date}","params":{"date":"2026-01-31"}}"#)
            }
            if request.path.hasPrefix("/invites/") { return .respond(status: 200, body: #"{"valid":true}"#) }
            if request.path == "/accounts", request.body.contains("correct horse battery") {
                return .respond(status: 422, body: #"{"password":["'correct horse battery' appears in a breach"],"username":["Taken"]}"#)
            }
            if request.path == "/accounts" {
                return .respond(status: 201, body: #"{"id":1,"echo":"you chose another long phrase","token":"tok-ACCOUNT-1"}"#)
            }
            if request.body.contains(Self.password) {
                return .respond(status: 200, body: #"{"valid":false,"code":"password.breached","message":"Seen in {count} breaches","params":{"count":3}}"#)
            }
            return .respond(status: 200, body: #"{"valid":true}"#)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("invite.json", Self.form(server))
        let recording = folder.path("session.jsonl"), trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess(
            ["--clock", "real", "--debounce-ms", "0", "--forms", forms, "--record", recording, "--trace", trace,
             "--log-level", "debug"],
            environment: ["INVITE_API_TOKEN": Self.token])
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"invite-live","form":"f"}}"#,
                    Self.edit("email", "ann@example.com"), Self.edit("invite", "OLDX-1")])
        lines += child.readLines { $0.contains(#""field":"invite","state":"failed""#) }
        child.send([Self.edit("invite", "GOOD-1")])
        lines += child.readLines { $0.contains(#""field":"invite","state":"ok""#) }
        child.send([Self.edit("password", Self.password)])
        lines += child.readLines { $0.contains(#""field":"password","state":"failed""#) }
        child.send([Self.edit("password", "correct horse battery"), Self.edit("username", "ann")])
        lines += child.readLines { $0.contains(#""form.submitEnabledChanged","params":{"form":"f","enabled":true"#) }
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"f"}}"#])
        lines += child.readLines { $0.contains(#""state":"failed""#) && $0.contains("submissionChanged") }
        child.send([Self.edit("password", "another long phrase"), Self.edit("username", "ann2")])
        lines += child.readLines { $0.contains(#""form.submitEnabledChanged","params":{"form":"f","enabled":true"#) }
        child.send([#"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"f"}}"#])
        lines += child.readLines { $0.contains(#""state":"succeeded""#) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        let shown = lines.filter { $0.contains("form.fieldChanged") && ($0.contains(#""field":"invite""#) || $0.contains(#""field":"password""#)) }
            .map { line -> String in
                let params = (try? JSONParser.parse(Array(line.utf8)))?["params"]
                func text(_ key: String) -> String { if case .string(let value)? = params?[key] { value } else { "?" } }
                return "\(text("field")) \(text("state")) \(text("code")) \(text("message"))"
            }
        #expect(shown == [
            "invite empty invite.empty ", "password empty password.empty ",
            "invite validating c Checking...", "invite failed invite.expired Expired on 2026-01-31",
            "invite validating c Checking...", "invite ok p Fine",
            "password validating c Checking...", "password failed password.breached Seen in 3 breaches",
            "password validating c Checking...", "password ok p Fine",
            // The API's refusal, the password it echoed masked.
            "password failed server.invalid '[secret]' appears in a breach",
            "password validating c Checking...", "password ok p Fine",
        ])
        // Its acceptance, the echoed password and the token it marks secret masked.
        #expect(lines.contains { $0.contains(#""result":{"echo":"you chose [secret]","id":1,"token":"[secret]"}"#) })
        // The API got the values and the token.
        #expect(server.requests.map(\.path).filter { $0.hasPrefix("/invites") } == [
            "/invites/OLDX-1?email=ann%40example.com", "/invites/GOOD-1?email=ann%40example.com",
        ])
        #expect(server.requests.filter { $0.path == "/passwords" }.map(\.body) == [
            #"{"candidate":"Password123!"}"#, #"{"candidate":"correct horse battery"}"#, #"{"candidate":"another long phrase"}"#,
        ])
        #expect(server.requests.filter { $0.path == "/accounts" }.map(\.body) == [
            #"{"email":"ann@example.com","invite":"GOOD-1","password":"correct horse battery","username":"ann"}"#,
            #"{"email":"ann@example.com","invite":"GOOD-1","password":"another long phrase","username":"ann2"}"#,
        ])
        // Nothing else did.
        for (name, bytes) in [("stdout", Data(lines.joined().utf8)), ("stderr", Data(child.errorOutput().utf8)),
                              ("trace", try Data(contentsOf: URL(fileURLWithPath: trace))),
                              ("recording", try Data(contentsOf: URL(fileURLWithPath: recording)))] {
            for secret in [Self.token, Self.password, "correct horse battery", "another long phrase", "tok-ACCOUNT-1"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)")
            }
        }
        // The recording asks with the password's placeholder, and replays to the same events.
        let recorded = try Recording.read(Array(try Data(contentsOf: URL(fileURLWithPath: recording))))
        var asked: [String] = []
        for case .ask(_, _, .check(let name, let inputs)) in recorded.entries {
            asked.append("\(name) \(inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.count)" }.joined(separator: ","))")
        }
        #expect(asked == ["invite email=15,value=6", "invite email=15,value=6", "breached value=12", "breached value=21", "breached value=19"])
        let outcome = try Replayer(recording: recorded).run()
        #expect(outcome.divergence == nil, "\(ReplayCommand.report(of: outcome, recording: recorded, path: recording))")
        #expect(outcome.unrecordedQuestions.isEmpty)
    }

    /// The API answers by the code asked about: late for `A`, early for `AB`, between for `ABC`
    /// (so answers arrive out of order); slowly (`SLOW`), trickled a byte at a time (`DRIP`),
    /// failing (`E500`), or with a body over the check's limit (`HUGE`).
    static func codes(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        switch request.path {
        case "/codes/A": return .respond(status: 200, body: #"{"valid":true}"#, after: 400)
        case "/codes/AB": return .respond(status: 200, body: #"{"valid":false,"code":"code.wrong","message":"Never shown"}"#, after: 10)
        case "/codes/ABC": return .respond(status: 200, body: #"{"valid":true}"#, after: 150)
        case "/codes/SLOW": return .respond(status: 200, body: #"{"valid":true}"#, after: 3000)
        case "/codes/DRIP": return .trickle(status: 200, body: #"{"valid":true,"padding":"# + String(repeating: " ", count: 80) + "}", every: 40)
        case "/codes/E500": return .respond(status: 500)
        case "/codes/HUGE": return .respond(status: 200, body: #"{"valid":true,"pad":""# + String(repeating: "x", count: 4096) + #""}"#)
        default: return .respond(status: 200, body: #"{"valid":false,"code":"code.unknown","message":"No code {code}","params":{"code":"?"}}"#)
        }
    }

    @Test func latestOnlySlowFailingOversizedAndUnreachableAPIsGiveExactlyTheirEvents() throws {
        let server = try LoopbackHTTPServer(Self.codes)
        defer { server.stop() }
        // A port nobody listens on: bound, then closed.
        let closed = try LoopbackHTTPServer { _ in .drop }
        let refusedURL = closed.url("/codes/{value}")
        closed.stop()
        let messages = #""validating":{"code":"c","message":"Checking..."},"passed":{"code":"p","message":"Fine"},"rejected":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}"#
        let form = """
            {"kind":"codes","fields":[
              {"name":"code","remoteChecks":[{"name":"code","kind":"http","url":"\(server.url("/codes/{value}"))","timeoutMs":300,"maxAnswerBytes":1024,\(messages)}]},
              {"name":"closed","remoteChecks":[{"name":"closed","kind":"http","url":"\(refusedURL)",\(messages)}]},
              {"name":"open","remoteChecks":[{"name":"open","kind":"http","url":"\(refusedURL)","whenUnavailable":"pass",\(messages)}]},
              {"name":"password","secret":true}],
             "submit":{"action":"registerAccount","usernameField":"code","passwordField":"password",
               "messages":{"taken":{"code":"t","message":"T"},"refused":{"code":"r","message":"R"},"unavailable":{"code":"u","message":"U"}}}}
            """
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("codes.json", form)
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--forms", forms])
        func edit(_ field: String, _ value: String) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"c","field":""# + field + #"","value":""# + value + #""}}"#
        }
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"codes","form":"c"}}"#])
        // Three keystrokes, each sent once the one before has reached the API: the answers come
        // back out of order (AB's first, A's last), and only the newest value's is shown.
        child.send([edit("code", "A")])
        #expect(server.waitForRequest())
        child.send([edit("code", "AB")])
        #expect(server.waitForRequest())
        child.send([edit("code", "ABC")])
        lines += child.readLines { $0.contains(#""field":"code","state":"ok""#) }
        for (value, version) in [("SLOW", 4), ("DRIP", 5), ("E500", 6), ("HUGE", 7), ("ZZZ", 8)] {
            #expect(server.waitForRequest())
            child.send([edit("code", value)])
            lines += child.readLines { $0.contains(#""field":"code","state":"failed""#) && $0.contains(#""version":\#(version)"#) }
        }
        child.send([edit("closed", "x")])
        lines += child.readLines { $0.contains(#""field":"closed","state":"failed""#) }
        child.send([edit("open", "x")])
        lines += child.readLines { $0.contains(#""field":"open","state":"ok""#) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        let shown = lines.compactMap { line -> String? in
            guard line.contains("form.fieldChanged"), let params = (try? JSONParser.parse(Array(line.utf8)))?["params"] else { return nil }
            func text(_ key: String) -> String { if case .string(let value)? = params[key] { value } else { "?" } }
            let version = params["version"]?.int64.map(String.init) ?? "?"
            return "\(text("field")) v\(version) \(text("state")) \(text("code")) \(text("message"))"
        }
        #expect(shown == [
            "code v0 empty code.empty ", "closed v0 empty closed.empty ", "open v0 empty open.empty ", "password v0 empty password.empty ",
            "code v1 validating c Checking...", "code v3 ok p Fine",
            "code v4 validating c Checking...", "code v4 failed u Down",
            "code v5 validating c Checking...", "code v5 failed u Down",
            "code v6 validating c Checking...", "code v6 failed u Down",
            "code v7 validating c Checking...", "code v7 failed u Down",
            "code v8 validating c Checking...", "code v8 failed code.unknown No code ?",
            "closed v9 validating c Checking...", "closed v9 failed u Down",
            "open v10 validating c Checking...", "open v10 ok check.skipped Accepted without this check: the service could not be reached",
        ])
        // The superseded requests were abandoned, the slow ones too, not waited out.
        #expect(Set(server.requests.map(\.path)) == ["/codes/A", "/codes/AB", "/codes/ABC", "/codes/SLOW", "/codes/DRIP", "/codes/E500", "/codes/HUGE", "/codes/ZZZ"])
        #expect(server.waitForAbort())
        #expect(!server.aborted.isEmpty && Set(server.aborted).isSubset(of: ["/codes/A", "/codes/AB", "/codes/SLOW", "/codes/DRIP"]))
    }
}
