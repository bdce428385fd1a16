import Testing
import SignupCore
@testable import SignupServer
@testable import SignupFormFiles
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Remote checks in form files (issue 37): `remoteChecks` with `http` checks load whole, and each
/// bad member is refused with its JSON path.
@Suite struct FormFileCheckTests {
    private static let messages = #""validating":{"code":"v","message":"…"},"passed":{"code":"p","message":"ok"},"rejected":{"code":"r","message":"no"},"unavailable":{"code":"u","message":"down"}"#

    private static func form(checks: String) -> String {
        """
        {"kind":"invite","fields":[
          {"name":"email"},
          {"name":"code","remoteChecks":[\(checks)]},
          {"name":"pin","secret":true}],
         "submit":{"action":"registerAccount","usernameField":"email","passwordField":"pin",
           "messages":{"taken":{"code":"t","message":"Taken"},"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
        """
    }

    private static let invite = #"{"name":"invite","kind":"http","url":"https://api.example/invites/{value}?email={email}","# + messages + "}"

    private func problem(_ checks: String) -> String? {
        do throws(FormFile.Problem) {
            _ = try FormFile.parse(Array(Self.form(checks: checks).utf8), file: "f.json")
            return nil
        } catch {
            return "\(error.path): \(error.reason)"
        }
    }

    @Test func anHTTPCheckLoadsWithEveryMember() throws {
        let full = #"{"name":"invite","kind":"http","method":"POST","url":"https://api.example/check","body":{"code":"{value}","email":"{email}"},"#
            + #""headers":{"Authorization":{"env":"INVITE_TOKEN","prefix":"Bearer "}},"timeoutMs":1500,"answer":{"passed":[204],"rejected":[409]},"#
            + #""whenUnavailable":"pass","cacheMs":60000,"maxAnswerBytes":1024,"debounceMs":450,"# + Self.messages + "}"
        let definition = try FormFile.parse(Array(Self.form(checks: full + "," + Self.invite.replacingOccurrences(of: "\"invite\"", with: "\"second\"")).utf8), file: "f.json")
        let checks = definition.fields[1].remoteChecks
        #expect(checks.map(\.name) == ["invite", "second"])
        #expect(checks[0].debounce == .milliseconds(450))
        #expect(checks[0].reads == ["email"])
        guard case .http(let http) = checks[0].kind else { Issue.record("not http"); return }
        #expect(http.method == .post)
        #expect(http.url.description == "https://api.example/check")
        #expect(http.body == .object(["code": "{value}", "email": "{email}"]))
        #expect(http.headers == [HTTPCheck.Header(name: "Authorization", environmentVariable: "INVITE_TOKEN", prefix: "Bearer ")])
        #expect(http.timeout == .milliseconds(1500))
        #expect(http.answer == .status(passed: [204], rejected: [409]))
        #expect(http.whenUnavailable == .pass)
        #expect(http.cacheFor == .milliseconds(60000))
        #expect(http.maxBodyBytes == 1024)
        // Left out: GET, no headers, 5 s, read from the body, fail-closed, no cache, 64 KiB.
        guard case .http(let plain) = checks[1].kind else { Issue.record("not http"); return }
        #expect(plain == HTTPCheck(url: try TextTemplate("https://api.example/invites/{value}?email={email}")))
        // The field that the check reads makes the checked field its dependent.
        #expect(definition.fields[1].dependencies == ["email"])
    }

    @Test(arguments: [
        (#"{"kind":"http","url":"https://a/{value}","# + messages + "}", "$.fields[1].remoteChecks[0].name: is required"),
        (#"{"name":"x","kind":"ftp","# + messages + "}", #"$.fields[1].remoteChecks[0].kind: must be "usernameAvailability", "http", "unique" or "breachedPassword""#),
        (#"{"name":"x","kind":"http","url":"/relative/{value}","# + messages + "}", "$.fields[1].remoteChecks[0].url: must be an absolute http:// or https:// URL"),
        (#"{"name":"x","kind":"http","url":"https://a/{value","# + messages + "}", "$.fields[1].remoteChecks[0].url: has a '{' that is never closed (write '{{' for a brace)"),
        (#"{"name":"x","kind":"http","url":"https://a/{phone}","# + messages + "}", "$.fields[1].remoteChecks[0]: form 'invite': check 'x' of field 'code' sends '{phone}', which is neither {value} nor a field of the form"),
        (#"{"name":"x y","kind":"http","url":"https://a/{value}","# + messages + "}", "$.fields[1].remoteChecks[0].name: form 'invite': field 'code' has a check named 'x y'; a name is 1 to 64 letters, digits, '_', '.' or '-'"),
        (invite + "," + invite, "$.fields[1].remoteChecks[1].name: form 'invite': field 'code' has two checks named 'invite'; a field's check names must be unique"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","headers":{"Authorization":"Bearer abc"},"# + messages + "}",
         #"$.fields[1].remoteChecks[0].headers.Authorization: must be {"env": VARIABLE}: a header's value comes from the environment, never from the file"#),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","headers":{"Bad Name":{"env":"X"}},"# + messages + "}",
         "$.fields[1].remoteChecks[0].headers.Bad Name: is not a header name (letters, digits and !#$%&'*+-.^_`|~)"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","headers":{"X-Key":{"env":"1X"}},"# + messages + "}",
         "$.fields[1].remoteChecks[0].headers.X-Key.env: is not an environment variable's name"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","body":{"a":"{value}"},"# + messages + "}",
         #"$.fields[1].remoteChecks[0].body: is sent with POST only; set "method": "POST""#),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","answer":{"passed":[200],"rejected":[200]},"# + messages + "}",
         "$.fields[1].remoteChecks[0].answer.rejected: lists 200, which passed lists too"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","answer":{"passed":[99],"rejected":[]},"# + messages + "}",
         "$.fields[1].remoteChecks[0].answer.passed[0]: must be an HTTP status, 100 to 599"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","verdictStatuses":[404,500],"# + messages + "}",
         "$.fields[1].remoteChecks[0].verdictStatuses[1]: must be an HTTP status, 400 to 499"),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","answer":{"passed":[200],"rejected":[404]},"verdictStatuses":[404],"# + messages + "}",
         #"$.fields[1].remoteChecks[0].verdictStatuses: goes with "answer": "body" only; list the statuses in answer.rejected"#),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","whenUnavailable":"retry","# + messages + "}",
         #"$.fields[1].remoteChecks[0].whenUnavailable: must be "unavailable" or "pass""#),
        (#"{"name":"x","kind":"http","url":"https://a/{value}","timeoutMs":0,"# + messages + "}", "$.fields[1].remoteChecks[0].timeoutMs: must be at least 1"),
        (#"{"name":"x","kind":"usernameAvailability","url":"https://a/{value}","# + messages + "}",
         "$.fields[1].remoteChecks[0].url: is not allowed here (allowed: debounceMs, kind, name, passed, rejected, unavailable, validating)"),
    ])
    func eachBadMemberOfACheckIsNamedByItsPath(checks: String, expected: String) {
        #expect(problem(checks) == expected)
    }

    @Test func anHTTPSubmitActionLoads() throws {
        let text = Self.form(checks: Self.invite).replacingOccurrences(
            of: #""action":"registerAccount","usernameField":"email","passwordField":"pin","#,
            with: #""action":"http","url":"https://api.example/teams/{code}/members","method":"PUT","body":{"mail":"{email}"},"#
                + #""headers":{"X-Key":{"env":"API_KEY"}},"timeoutMs":3000,"secretMembers":["token"],"maxAnswerBytes":2048,"#)
            .replacingOccurrences(of: #""messages":{"taken":{"code":"t","message":"Taken"},"#, with: #""messages":{"#)
        let definition = try FormFile.parse(Array(text.utf8), file: "f.json")
        #expect(definition.submit.kind == .http(HTTPSubmission(
            method: .put, url: try TextTemplate("https://api.example/teams/{code}/members"), body: .object(["mail": "{email}"]),
            headers: [.init(name: "X-Key", environmentVariable: "API_KEY")], timeout: .milliseconds(3000), secretMembers: ["token"],
            maxBodyBytes: 2048)))
        #expect(definition.submit.possibleFailures == [.refused, .unavailable])
        #expect(definition.submit.resultName == "result")
        // A field the URL or the body names must exist.
        #expect(throws: FormFile.Problem(file: "f.json", path: "$.submit.url",
                                         reason: "form 'invite': 'submit' refers to field 'team', which the form does not define")) {
            try FormFile.parse(Array(text.replacingOccurrences(of: "{code}", with: "{team}").utf8), file: "f.json")
        }
        #expect(throws: FormFile.Problem(file: "f.json", path: "$.submit.messages.taken", reason: "is not allowed here (allowed: refused, unavailable)")) {
            try FormFile.parse(Array(text.replacingOccurrences(of: #""messages":{"#, with: #""messages":{"taken":{"code":"t","message":"T"},"#).utf8), file: "f.json")
        }
    }

    @Test func anEmailRuleLoadsAndOnlyTrueSetsIt() throws {
        let text = Self.form(checks: Self.invite).replacingOccurrences(
            of: #"{"name":"email"}"#, with: #"{"name":"email","rules":[{"email":true,"code":"email.invalid","message":"Not an address"}]}"#)
        let definition = try FormFile.parse(Array(text.utf8), file: "f.json")
        #expect(definition.fields[0].rules == [Rule(.emailAddress, failure: Message("email.invalid", "Not an address"))])
        #expect(throws: FormFile.Problem(file: "f.json", path: "$.fields[0].rules[0].email", reason: "must be true")) {
            try FormFile.parse(Array(text.replacingOccurrences(of: #""email":true"#, with: #""email":"yes""#).utf8), file: "f.json")
        }
    }

    @Test func aCheckGivenAsRemoteCheckIsPointedAtThere() {
        let text = Self.form(checks: Self.invite).replacingOccurrences(
            of: #""remoteChecks":["#, with: #""remoteCheck":"#).replacingOccurrences(of: "}]},\n  {\"name\":\"pin\"", with: "}},\n  {\"name\":\"pin\"")
            .replacingOccurrences(of: "{email}", with: "{phone}")
        #expect(throws: FormFile.Problem(
            file: "f.json", path: "$.fields[1].remoteCheck",
            reason: "form 'invite': check 'invite' of field 'code' sends '{phone}', which is neither {value} nor a field of the form")) {
            try FormFile.parse(Array(text.utf8), file: "f.json")
        }
    }

    /// Check names are unique within a field: two fields may each have the default-named username check.
    @Test func twoFieldsMayEachHaveAUsernameCheck() throws {
        let availability = #"{"kind":"usernameAvailability","# + Self.messages + "}"
        let text = Self.form(checks: availability).replacingOccurrences(of: #"{"name":"email"}"#, with: #"{"name":"email","remoteCheck":"# + availability + "}")
        let definition = try FormFile.parse(Array(text.utf8), file: "f.json")
        #expect(definition.fields.map { $0.remoteChecks.map(\.name) } == [["usernameAvailability"], ["usernameAvailability"], []])
    }

    @Test func remoteCheckAndRemoteChecksCannotBothBeGiven() {
        let text = Self.form(checks: Self.invite).replacingOccurrences(
            of: #"{"name":"code","#, with: #"{"name":"code","remoteCheck":{"kind":"usernameAvailability","# + Self.messages + "},")
        #expect(throws: FormFile.Problem(file: "f.json", path: "$.fields[1].remoteChecks", reason: "cannot be given with remoteCheck; list every check here")) {
            try FormFile.parse(Array(text.utf8), file: "f.json")
        }
    }
}
