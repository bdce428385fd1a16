import Foundation
import Testing
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// An `http` submission's field errors in each of the three formats (issue 37), through the whole
/// server on the virtual clock: exactly what each field shows, and that editing a field clears its
/// error and only its own.
@Suite struct SubmissionFieldErrorTests {
    static let form = """
        {"kind":"join","fields":[{"name":"email"},{"name":"username"},{"name":"password","secret":true}],
         "submit":{"action":"http","url":"https://api.example/accounts",
           "messages":{"refused":{"code":"join.refused","message":"Refused ({status})"},"unavailable":{"code":"backend.unavailable","message":"Down"}}}}
        """

    /// The API's answer by username: RFC 9457, JSON:API, and Django REST framework's shape.
    static let directory = #"""
        {"submissions":{"join":{"latencyMs":100,"cases":[
          {"when":{"username":"rfc"},"status":422,"body":{"type":"about:blank","title":"Invalid","status":422,"errors":[
            {"pointer":"#/email","detail":"{email} is taken","code":"email.taken","email":"a@b.c"},
            {"pointer":"/username","detail":"Too plain","code":"username.plain"}]}},
          {"when":{"username":"jsonapi"},"status":400,"body":{"errors":[
            {"title":"Bad address","detail":"Use your work address","source":{"pointer":"/data/attributes/email"},"meta":{"domain":"example.com"}},
            {"title":"Closed","detail":"Sign-ups are closed today","code":"signup.closed"}]}},
          {"when":{"username":"drf"},"status":400,"body":{"email":["Enter a valid email address."],"password":["This password is too common.","Too short."]}}
        ]}}}
        """#

    static func session(username: String) -> String {
        [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"join","form":"j","values":{"email":"a@b.c","username":"\#(username)","password":"pw-secret"},"at":0}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"j","at":10}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"j","field":"email","value":"x@y.z","at":500}}"#,
        ].joined(separator: "\n") + "\n"
    }

    /// What each event after the opening ones shows, as `field state code params "message"`.
    static func shown(username: String) throws -> [String] {
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("join.json", form)
        try Data(directory.utf8).write(to: URL(fileURLWithPath: folder.path("directory.json")))
        let output = try Subprocess.run(
            ["--clock", "virtual", "--forms", forms, "--directory", folder.path("directory.json")],
            input: session(username: username))
        #expect(output.status == 0 && !output.stdout.contains("pw-secret"))
        return output.lines.compactMap { line -> String? in
            guard let json = try? JSONParser.parse(Array(line.utf8)), case .string(let method)? = json["method"],
                  let params = json["params"], params["at"]?.int64 != 0 else { return nil }
            func text(_ key: String) -> String { if case .string(let value)? = params[key] { value } else { "" } }
            var writer = JSONWriter()
            writer.json(params["params"] ?? .object([]))
            let values = writer.withBytes { String(decoding: $0, as: UTF8.self) }
            switch method {
            case "form.fieldChanged": return "\(text("field")) \(text("state")) \(text("code")) \(values) \"\(text("message"))\""
            case "form.submissionChanged":
                return text("state") == "failed" ? "submission failed \(text("code")) \(values) \"\(text("message"))\"" : "submission \(text("state"))"
            default: return nil
            }
        }
    }

    @Test func rfc9457ProblemDetailsPutEachErrorOnItsFieldAndTheRestFailsTheSubmission() throws {
        #expect(try Self.shown(username: "rfc") == [
            "submission submitting",
            #"email failed email.taken {"email":"a@b.c"} "a@b.c is taken""#,
            #"username failed username.plain {} "Too plain""#,
            #"submission failed join.refused {"status":422} "Refused (422)""#,
            // Editing the e-mail clears its error; the username's stays.
            #"email ok email.ok {} """#,
        ])
    }

    @Test func jsonAPIErrorsGoOnTheFieldTheirPointerNamesAndOneWithoutFailsTheSubmission() throws {
        #expect(try Self.shown(username: "jsonapi") == [
            "submission submitting",
            #"email failed server.invalid {"domain":"example.com"} "Use your work address""#,
            #"submission failed signup.closed {} "Sign-ups are closed today""#,
            #"email ok email.ok {} """#,
        ])
    }

    @Test func djangoRestFrameworkErrorsShowTheFirstMessageOfEachField() throws {
        #expect(try Self.shown(username: "drf") == [
            "submission submitting",
            #"email failed server.invalid {} "Enter a valid email address.""#,
            #"password failed server.invalid {} "This password is too common.""#,
            #"submission failed join.refused {"status":400} "Refused (400)""#,
            #"email ok email.ok {} """#,
        ])
    }
}
