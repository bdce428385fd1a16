import Foundation
import SignupTestSupport
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Issue 36 §2: a recording's placeholders give every local rule the secret's own verdict, so an
/// unedited recording replays (exit 0) for every kind of rule, with a secret that passes and one
/// that fails, and no secret is written.
@Suite struct PlaceholderVerdictTests {
    /// One secret field per kind of rule, and one that must equal another.
    static let form = """
        {"kind":"pins","fields":[
          {"name":"lengthy","secret":true,"rules":[{"minLength":6,"code":"l.bad","message":"Short"}]},
          {"name":"brief","secret":true,"rules":[{"maxLength":4,"code":"b.bad","message":"Long"}]},
          {"name":"digits","secret":true,"rules":[{"characters":"asciiDigits","code":"d.bad","message":"Digits"}]},
          {"name":"pinned","secret":true,"rules":[{"pattern":"7[0-9]{3}","code":"p.bad","message":"Pin"}]},
          {"name":"listed","secret":true,"rules":[{"notOneOf":["admin"],"code":"n.bad","message":"Listed"}]},
          {"name":"either","secret":true,"rules":[{"anyOf":[[{"minLength":10}],[{"pattern":"7.*"}]],"code":"e.bad","message":"Neither"}]},
          {"name":"again","secret":true,"rules":[{"equalsField":"pinned","code":"a.bad","message":"Different"}]}],
         "submit":{"action":"logIn","usernameField":"lengthy","passwordField":"brief",
           "messages":{"wrongCredentials":{"code":"w","message":"Wrong"},"rateLimited":{"code":"r","message":"Later"},"unavailable":{"code":"u","message":"Down"}}}}
        """

    /// Each field's secret that passes its rule and one that fails it.
    static let secrets: [(field: String, passing: String, failing: String)] = [
        ("lengthy", "abc123", "abc1"), ("brief", "ab1", "abcde1"), ("digits", "4711", "47a1"),
        ("pinned", "7123", "8123"), ("listed", "admin2", "admin"), ("either", "7abc", "8abc"),
        ("again", "7123", "7124"),
    ]

    @Test func aRecordingOfSecretsThatPassAndFailEveryRuleReplays() throws {
        let folder = try TemporaryDirectory()
        let (recording, forms) = (folder.path("session.rec.jsonl"), folder.path("forms"))
        try FileManager.default.createDirectory(atPath: forms, withIntermediateDirectories: false)
        try Data(Self.form.utf8).write(to: URL(fileURLWithPath: forms + "/pins.json"))
        var lines = [#"{"jsonrpc":"2.0","id":0,"method":"form.open","params":{"kind":"pins","form":"f"}}"#]
        var time = 0
        for (field, passing, failing) in Self.secrets {
            for value in [passing, failing, passing] {
                time += 10
                lines.append(#"{"jsonrpc":"2.0","id":\#(time),"method":"form.edit","params":{"form":"f","field":"\#(field)","value":"\#(value)","at":\#(time)}}"#)
            }
        }
        lines.append(#"{"jsonrpc":"2.0","id":"s","method":"form.snapshot","params":{"form":"f"}}"#)
        let output = try Subprocess.run(["--clock", "virtual", "--forms", forms, "--record", recording],
                                        input: lines.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        // Every rule was met both ways: each field failed once and was ok twice.
        for (field, _, _) in Self.secrets {
            let results = output.lines.filter { $0.contains("form.fieldChanged") && $0.contains(#""field":"\#(field)","state""#) }
            #expect(results.filter { $0.contains(#""state":"ok""#) }.count == 2, "\(field): \(results)")
            #expect(results.filter { $0.contains(#""state":"failed""#) }.count == 1, "\(field): \(results)")
        }
        let recorded = try Data(contentsOf: URL(fileURLWithPath: recording))
        for (field, passing, failing) in Self.secrets {
            for secret in [passing, failing] {
                #expect(!String(decoding: recorded, as: UTF8.self).contains(#""value":"\#(secret)""#), "\(field): \(secret) recorded")
            }
        }
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
