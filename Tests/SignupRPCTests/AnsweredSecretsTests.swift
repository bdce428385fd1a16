import Testing
import SignupCore
@testable import SignupTools
@testable import SignupProtocol

/// A recorded answer has the secrets its question hid replaced wherever they stand in its texts,
/// and messages out watched for them after; a value the question wrote in clear stays in clear.
@Suite struct AnsweredSecretsTests {
    private static let password = "Lovelace-1815"

    /// Secrets that have met `password` as a log-in's, so that it has a placeholder; and the placeholder.
    private func secretsKnowingThePassword() throws -> (RecordingSecrets, String) {
        var secrets = RecordingSecrets(clock: .virtual, redaction: SecretRedaction(forms: [.signup]), logger: nil)
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

        let asked = secrets.hiding(in: .check(name: "policy", inputs: ["value": Self.password, "username": "ada"]), number: 2)
        #expect(asked == .check(name: "policy", inputs: ["value": placeholder, "username": "ada"]))
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

    @Test func anAnswerWithoutTextLeavesTheSecretItsQuestionSentUnwatched() throws {
        var (secrets, placeholder) = try secretsKnowingThePassword()
        #expect(secrets.hiding(in: .check(name: "policy", inputs: ["value": Self.password]), number: 2)
            == .check(name: "policy", inputs: ["value": placeholder]))
        #expect(secrets.hiding(in: .verdict(.passed), number: 2) == .verdict(.passed))
        // The question's secrets went with its answer: a later answer under its number echoes nothing.
        let late = BackendAnswer.failure(.unavailable(reason: "\(Self.password) again"))
        #expect(secrets.hiding(in: late, number: 2) == late)
        #expect(hidingOut(#"{"a":"\#(Self.password)"}"#, secrets) == nil)
    }
}
