import Foundation
import Testing
import SignupCore
import SignupTestSupport
@testable import SignupServer

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
        try FileManager.default.createDirectory(atPath: folder.path("forms"), withIntermediateDirectories: true)
        try Data(Self.form(server).utf8).write(to: URL(fileURLWithPath: folder.path("forms/invite.json")))
        let recording = folder.path("session.jsonl"), trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess(
            ["--clock", "real", "--debounce-ms", "0", "--forms", folder.path("forms"), "--record", recording, "--trace", trace],
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
}
