import SignupCore
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The notifications are written from fixed text with their values set in; each must be exactly
/// the message the structured writer builds, member by member, in the documented order.
@Suite struct NotificationTests {
    private static let taken = FieldResult(
        state: .failed, code: "username.taken", params: ["name": .string("bob"), "min": .int(5)],
        message: "\"bob\" is\ttaken")

    static let events: [FormEvent] = [
        .fieldChanged(FieldUpdate(field: "username", result: taken, version: 12)),
        .fieldChanged(FieldUpdate(field: "password", result: FieldResult(state: .empty, code: "password.empty", message: ""), version: 0)),
        .submitEnabledChanged(true),
        .submitEnabledChanged(false),
        .submissionChanged(.idle),
        .submissionChanged(.submitting),
        .submissionChanged(.succeeded(account: .object(["username": .string("alice"), "id": .int(7)]))),
        .submissionChanged(.failed(SubmissionFailure(code: "submit.taken", params: ["name": .string("é")], message: "taken"))),
        .presenceChanged(PresenceUpdate(field: "sms\"Phone", presence: FieldPresence(shown: true, required: true))),
        .presenceChanged(PresenceUpdate(field: "company", presence: FieldPresence(shown: false, required: false))),
    ]

    @Test(arguments: events, [FormDefinition.signup.submit, FormDefinition.login.submit])
    func eachNotificationIsTheMessageTheStructuredWriterBuilds(event: FormEvent, action: SubmitAction) {
        let form = "f\"1\\"
        var fast = JSONWriter()
        Notifications.write(event, form: form, at: 1234, action: action, to: &fast)
        #expect(String(decoding: fast.bytes, as: UTF8.self) == Self.structured(event, form: form, at: 1234, action: action))
    }

    /// The trace searches a message out for members named for secrets only where its type says it
    /// may hold one: every one that says not holds none the search would find.
    @Test(arguments: events + [
        .fieldChanged(FieldUpdate(field: "username", result: FieldResult(
            state: .failed, code: "username.taken", params: ["details": .array([.object(["accessToken": "t"])])], message: "taken"), version: 1)),
        .fieldChanged(FieldUpdate(field: "username", result: FieldResult(
            state: .ok, code: "username.ok", params: ["secret": true, "Password": .null], message: "ok"), version: 1)),
    ])
    func aNotificationSaysWhetherItMayNameASecretMember(event: FormEvent) {
        var writer = JSONWriter()
        Notifications.write(event, form: "f1", at: 5, action: FormDefinition.signup.submit, to: &writer)
        let searched = writer.bytes.withUnsafeBufferPointer(SecretRedaction.mayNameSecretMember(in:))
        let said = Notifications.mayNameSecretMember(event)
        switch event {
        case .fieldChanged(let update) where update.result.params["details"] != nil: #expect(said && searched)
        case .fieldChanged(let update) where update.result.params["secret"] != nil: #expect(!said && searched)
        case .submissionChanged: #expect(said)
        default: #expect(!said && (!searched || !writer.bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\\") }))
        }
        let results = EncodedFieldResults()
        if case .fieldChanged(let update) = event, let entry = results.entry(for: update) {
            #expect(results.table.snapshot().mayNameSecretMember(entry.number) == said)
        }
    }

    @Test(arguments: events)
    func aFieldChangeCarryingItsEncodedResultIsTheSameMessage(event: FormEvent) throws {
        guard case .fieldChanged(let update) = event else { return }
        let form = "f\"1\\"
        let results = EncodedFieldResults()
        let entry = try #require(results.entry(for: update))
        let notification = FormNotification(form: form, fieldResult: entry.number, version: update.version, at: 1234)
        var writer = JSONWriter()
        notification.write(to: &writer, fields: results.table.snapshot())
        let action = FormDefinition.signup.submit
        #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.structured(event, form: form, at: 1234, action: action))
        // Deferred only to a queue that never conflates.
        #expect(notification.conflationKey == nil)
    }

    /// The reference: the message built member by member.
    private static func structured(_ event: FormEvent, form: String, at time: Int64, action: SubmitAction) -> String {
        var writer = JSONWriter()
        writer.object { message in
            message.key("jsonrpc"); message.string("2.0")
            let method = switch event {
            case .fieldChanged: "form.fieldChanged"
            case .submitEnabledChanged: "form.submitEnabledChanged"
            case .submissionChanged: "form.submissionChanged"
            case .presenceChanged: "form.fieldPresenceChanged"
            }
            message.key("method"); message.string(method)
            message.key("params")
            message.object { params in
                params.key("form"); params.string(form)
                switch event {
                case .fieldChanged(let update):
                    params.key("field"); params.string(update.field)
                    params.key("state"); params.string(update.result.state.rawValue)
                    params.key("code"); params.string(update.result.code)
                    params.key("params"); params.value(.object(update.result.params))
                    params.key("message"); params.string(update.result.message)
                    params.key("version"); params.int(update.version)
                case .submitEnabledChanged(let enabled):
                    params.key("enabled"); params.bool(enabled)
                case .submissionChanged(let state):
                    Notifications.writeSubmission(state, of: action, to: &params)
                case .presenceChanged(let update):
                    params.key("field"); params.string(update.field)
                    params.key("shown"); params.bool(update.presence.shown)
                    params.key("required"); params.bool(update.presence.required)
                }
                params.key("at"); params.int(time)
            }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
