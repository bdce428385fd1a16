import Testing
import SignupCore
import SignupTestSupport
@testable import SignupTools
@testable import SignupProtocol

/// A recorded answer has the secrets its question hid replaced wherever they stand in its texts,
/// and messages out watched for them after; a value the question wrote in clear stays in clear.
@Suite struct AnsweredSecretsTests {
    private static let password = "Lovelace-1815"

    /// Secrets that have met `password` as a log-in's, so that it has a placeholder; and the placeholder.
    private func secretsKnowingThePassword() throws -> (RecordingSecrets, String) {
        var secrets = RecordingSecrets(clock: .virtual, redaction: SecretRedaction(forms: [.secureSignup]), logger: nil)
        let asked = secrets.hiding(in: .login(username: "ada", password: Self.password), number: 1)
        guard case .login("ada", let placeholder) = asked else {
            Issue.record("a log-in question stays one, its username as asked: \(asked)")
            throw CancellationError()
        }
        #expect(placeholder != Self.password)
        _ = secrets.hiding(in: .login(.wrongCredentials), number: 1)
        return (secrets, placeholder)
    }

    private func hidingOut(_ line: String, _ secrets: RecordingSecrets) -> JSON? {
        Array(line.utf8).withUnsafeBufferPointer { secrets.hiding(inOut: $0) }
    }

    @Test func aCheckThatQuotesTheSecretItWasSentHasItReplacedInItsAnswerAndInMessagesOut() throws {
        var (secrets, placeholder) = try secretsKnowingThePassword()
        let out = #"{"message":"\#(Self.password) is too common"}"#
        #expect(hidingOut(out, secrets) == nil, "nothing is watched for before a backend echoes it")

        // signup-secure's password has a `breachedPassword` check; the username is no secret.
        let asked = secrets.hiding(in: .check(name: "breachedPassword", inputs: ["value": Self.password, "username": "ada"]), number: 2)
        #expect(asked == .check(name: "breachedPassword", inputs: ["value": placeholder, "username": "ada"]))
        let issue = ReportedIssue(field: nil, code: "password.common", message: "\(Self.password) is too common",
                                  params: ["given": .string(Self.password), "user": .string("ada")])
        let answered = secrets.hiding(in: .verdict(.rejected(issue)), number: 2)
        #expect(answered == .verdict(.rejected(ReportedIssue(
            field: nil, code: "password.common", message: "\(placeholder) is too common",
            params: ["given": .string(placeholder), "user": .string("ada")]))))
        #expect(hidingOut(out, secrets) == .object([.init(key: "message", value: .string("\(placeholder) is too common"))]))
    }

    @Test func aNameThatEqualsASecretIsWrittenInClearInTheQuestionAndItsAnswer() throws {
        var (secrets, _) = try secretsKnowingThePassword()
        #expect(secrets.hiding(in: .availability(username: Self.password), number: 2) == .availability(username: Self.password))
        let failure = BackendAnswer.failure(.unavailable(reason: "the directory timed out on \(Self.password)"))
        #expect(secrets.hiding(in: failure, number: 2) == failure)
        #expect(hidingOut(#"{"a":"\#(Self.password)"}"#, secrets) == nil)
    }

    @Test func aSubmissionHidesItsSecretFieldsValuesByTheirNamesAndOnlyThose() throws {
        var (secrets, placeholder) = try secretsKnowingThePassword()
        let asked = secrets.hiding(in: .submission(kind: "k", fields: [
            "username": Self.password, "password": Self.password, "repeatedPassword": "Ｌovelace-1815",
        ]), number: 2)
        guard case .submission("k", let fields) = asked else {
            Issue.record("a submission stays one: \(asked)")
            return
        }
        // A value equal to a secret, in a field that is none, is written as typed: so a replay asks alike.
        #expect(fields["username"] == Self.password)
        #expect(fields["password"] == placeholder)
        // A secret field's value with no placeholder yet gets one: what decides is the field, not the value.
        #expect(fields["repeatedPassword"] != "Ｌovelace-1815")
        #expect(fields["repeatedPassword"]?.count == "Ｌovelace-1815".count)
    }

    @Test func anAnswerWithoutTextLeavesTheSecretItsQuestionSentUnwatched() throws {
        var (secrets, placeholder) = try secretsKnowingThePassword()
        #expect(secrets.hiding(in: .check(name: "breachedPassword", inputs: ["value": Self.password]), number: 2)
            == .check(name: "breachedPassword", inputs: ["value": placeholder]))
        #expect(secrets.hiding(in: .verdict(.passed), number: 2) == .verdict(.passed))
        // The question's secrets went with its answer: a later answer under its number echoes nothing.
        let late = BackendAnswer.failure(.unavailable(reason: "\(Self.password) again"))
        #expect(secrets.hiding(in: late, number: 2) == late)
        #expect(hidingOut(#"{"a":"\#(Self.password)"}"#, secrets) == nil)
    }
}

/// A password typed key by key into a form whose backend is sent every field (an `http`
/// submission, as `api-signup`'s) is hidden where a question carries it, and its first letters are
/// not searched for in the recording's other texts: every message out is recorded as it was sent,
/// and the recording replays. (They were: `a` became its placeholder inside "available"; and the
/// username `ann`, equal to the password's first letters, was hidden in the submission, which a
/// replay then never asked.)
@Suite struct TypedSecretsTests {
    @Test func aPasswordTypedKeyByKeyLeavesTheMessagesOutOfTheRecordingAsSent() throws {
        let root = Subprocess.packageRoot
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let password = "ann-correct-horse"
        func edit(_ field: String, _ value: String, at time: Int) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"j","field":"\#(field)","value":"\#(value)","at":\#(time)}}"#
        }
        var input = [#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"j","kind":"api-signup","at":0}}"#]
        for typed in 1...password.count { input.append(edit("password", String(password.prefix(typed)), at: 50 * typed)) }
        input += [
            edit("email", "ann@example.com", at: 1000), edit("inviteCode", "GOOD-0001", at: 1100), edit("username", "ann", at: 1200),
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"j","at":3000}}"#,
        ]
        let output = try Subprocess.run([
            "--clock", "virtual", "--forms", root.appendingPathComponent("Examples/api").path,
            "--directory", root.appendingPathComponent("Examples/directories/invite.json").path, "--record", recording,
        ], input: input.joined(separator: "\n") + "\n")
        #expect(output.stdout.contains(#""message":"Checking the invite...""#))
        #expect(output.stdout.contains(#""state":"succeeded""#))

        let recorded = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(!recorded.contains(password))
        let outs = recorded.split(separator: "\n").compactMap { line in
            line.range(of: #","out":"#).map { String(line[$0.upperBound...].dropLast()) }
        }
        #expect(outs == output.lines)
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
