import Foundation
import Testing
@testable import SignupCore

/// Issue 37 §2: the field errors of a refused request, in each format backends use, placed on the
/// form's fields exactly as the report gives them.
@Suite struct ReportedIssuesTests {
    static let fields = ["email", "inviteCode", "password"]

    static func read(_ json: String) -> [ReportedIssue]? {
        let body = try! JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        return ReportedIssues.read(body, fields: fields)
    }

    @Test func problemDetailsWithErrorsPutEachOnItsPointersField() {
        let body = """
            {"type":"https://example.net/validation-error","title":"Your request is not valid.","status":422,
             "errors":[{"detail":"is already registered","pointer":"#/email","code":"email.taken"},
                       {"detail":"has expired","pointer":"#/inviteCode","expiredOn":"2026-11-01"},
                       {"detail":"the plan is full","pointer":"#/plan"}]}
            """
        #expect(Self.read(body) == [
            ReportedIssue(field: "email", code: "email.taken", message: "is already registered"),
            ReportedIssue(field: "inviteCode", code: "server.invalid", message: "has expired", params: ["expiredOn": "2026-11-01"]),
            ReportedIssue(field: nil, code: "server.refused", message: "the plan is full"),
        ])
    }

    @Test func aProblemWithoutErrorsIsAboutTheWhole() {
        #expect(Self.read(#"{"type":"about:blank","title":"Too many sign-ups","status":429,"detail":"Try again in an hour"}"#) == [
            ReportedIssue(field: nil, code: "server.refused", message: "Try again in an hour"),
        ])
        #expect(Self.read(#"{"title":"Closed","status":403,"code":"signup.closed"}"#) == [
            ReportedIssue(field: nil, code: "signup.closed", message: "Closed"),
        ])
    }

    /// Issue 54: `Examples/directories/invite.json`'s own 403 read as two issues, one of them with
    /// the code as its message.
    @Test(arguments: [
        (#"{"detail":"Sign-ups are closed for now","code":"signup.closed"}"#, "Sign-ups are closed for now"),
        (#"{"title":"Sign-ups are closed","code":"signup.closed"}"#, "Sign-ups are closed"),
        (#"{"message":"Sign-ups are closed","code":"signup.closed"}"#, "Sign-ups are closed"),
        (#"{"type":"https://example.com/closed","title":"Closed","detail":"Sign-ups are closed for now","status":403,"code":"signup.closed"}"#,
         "Sign-ups are closed for now"),
    ])
    func aCodeBesideAMessageIsOneIssueAboutTheWhole(body: String, message: String) {
        #expect(Self.read(body) == [ReportedIssue(field: nil, code: "signup.closed", message: message)])
    }

    @Test func jsonAPIErrorsUseTheirSourcePointerAndMeta() {
        let body = """
            {"errors":[{"status":"422","code":"invite.unknown","title":"Invalid Attribute","detail":"No such invite",
                        "source":{"pointer":"/data/attributes/inviteCode"},"meta":{"tries":3}},
                       {"status":"422","title":"Weak password","source":{"pointer":"/data/attributes/password"}},
                       {"status":"409","title":"Conflict","detail":"Sign-ups are paused","source":{"parameter":"plan"}}]}
            """
        #expect(Self.read(body) == [
            ReportedIssue(field: "inviteCode", code: "invite.unknown", message: "No such invite", params: ["tries": 3]),
            ReportedIssue(field: "password", code: "server.invalid", message: "Weak password"),
            ReportedIssue(field: nil, code: "server.refused", message: "Sign-ups are paused"),
        ])
    }

    @Test func fieldKeyedMessagesGoInTheFormsFieldOrderThenTheWholes() {
        let django = #"{"password":["Too short.","Too common."],"email":["Enter a valid email address."],"non_field_errors":["Invites are closed."]}"#
        #expect(Self.read(django) == [
            ReportedIssue(field: "email", code: "server.invalid", message: "Enter a valid email address."),
            ReportedIssue(field: "password", code: "server.invalid", message: "Too short."),
            ReportedIssue(field: "password", code: "server.invalid", message: "Too common."),
            ReportedIssue(field: nil, code: "server.refused", message: "Invites are closed."),
        ])
        let rails = #"{"errors":{"email":["has already been taken"],"base":["sign-ups are closed"]}}"#
        #expect(Self.read(rails) == [
            ReportedIssue(field: "email", code: "server.invalid", message: "has already been taken"),
            ReportedIssue(field: nil, code: "server.refused", message: "sign-ups are closed"),
        ])
        #expect(Self.read(#"{"detail":"Authentication credentials were not provided."}"#) == [
            ReportedIssue(field: nil, code: "server.refused", message: "Authentication credentials were not provided."),
        ])
    }

    @Test func aBodyInNoFormatIsNotRead() {
        for body in [#"[]"#, #""refused""#, #"{}"#, #"{"errors":[]}"#, #"{"errors":[{"status":"500"}]}"#, #"{"count":3}"#] {
            #expect(Self.read(body) == nil, "\(body)")
        }
    }

    @Test(arguments: [
        ("#/email", "email"), ("/email", "email"), ("/data/attributes/inviteCode", "inviteCode"), ("#/invite%43ode", "inviteCode"),
        ("/a~1b", "a/b"), ("/a~0b", nil), ("", nil), ("email", nil), ("/items/0", nil), ("#/%ZZ", nil), ("/password/", nil),
    ] as [(String, String?)])
    func aPointerNamesTheFieldOfItsLastToken(pointer: String, field: String?) {
        #expect(ReportedIssues.field(at: pointer, fields: Self.fields + ["a/b"]) == field)
    }
}
