import SignupCore

/// The writing the server's notifications share, and a form's event written as its notification.
///
/// They are the bulk of the output, so each is written as its fixed text with the values set in
/// (`JSONWriter.verbatim`) rather than member by member; `NotificationTests` checks every kind
/// against the same message built with `object`/`key`.
package enum Notifications {
    /// `event` as its notification's message; `action` is read only for a submission event.
    package static func write(
        _ event: FormEvent, form: String, at time: Int64, action: @autoclosure () -> SubmitAction, to writer: inout JSONWriter
    ) {
        switch event {
        case .fieldChanged(let update):
            FieldChangedNotification(form: form, update: update, at: time).write(to: &writer)
        case .submitEnabledChanged(let enabled):
            SubmitEnabledChangedNotification(form: form, enabled: enabled, at: time).write(to: &writer)
        case .submissionChanged(let state):
            SubmissionChangedNotification(form: form, state: state, action: action(), at: time).write(to: &writer)
        case .presenceChanged(let update):
            FieldPresenceChangedNotification(form: form, update: update, at: time).write(to: &writer)
        }
    }

    /// Whether `event`'s notification may name a secret member (`NotificationType.mayNameSecretMember`).
    package static func mayNameSecretMember(_ event: FormEvent) -> Bool {
        switch event {
        case .fieldChanged(let update): FieldChangedNotification.mayNameSecretMember(update.result)
        case .submitEnabledChanged: SubmitEnabledChangedNotification.mayNameSecretMember
        case .presenceChanged: FieldPresenceChangedNotification.mayNameSecretMember
        case .submissionChanged: SubmissionChangedNotification.mayNameSecretMember
        }
    }

    /// `form.fieldChanged` with the field's name and result already encoded, as
    /// `EncodedFieldResult.members`.
    package static func writeFieldChanged(form: String, members: UnsafeRawBufferPointer, version: Int, at time: Int64,
                                  to writer: inout JSONWriter) {
        writeFieldChangedStart(form: form, to: &writer)
        writeFieldChangedRest(members: members, version: version, at: time, to: &writer)
    }

    /// The same, the form's id given as UTF-8.
    package static func writeFieldChanged(formUTF8 form: UnsafeRawBufferPointer, members: UnsafeRawBufferPointer, version: Int, at time: Int64,
                                  to writer: inout JSONWriter) {
        writer.verbatim(fieldChangedStart)
        writer.string(utf8: form)
        writeFieldChangedRest(members: members, version: version, at: time, to: &writer)
    }

    private static func writeFieldChangedRest(members: UnsafeRawBufferPointer, version: Int, at time: Int64,
                                              to writer: inout JSONWriter) {
        writer.verbatim(members)
        writeVersion(version, to: &writer)
        writeEnd(at: time, to: &writer)
    }

    /// `field`, `state`, `code`, `params` and `message` of a field's change, as members that follow `form`.
    static func writeFieldMembers(_ field: String, _ result: FieldResult, to writer: inout JSONWriter) {
        writer.verbatim(#","field":"#)
        writer.string(field)
        writeResult(result, to: &writer)
    }

    private static var fieldChangedStart: StaticString { #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"# }

    static func writeFieldChangedStart(form: String, to writer: inout JSONWriter) {
        writer.verbatim(fieldChangedStart)
        writer.string(form)
    }

    static func writeVersion(_ version: Int, to writer: inout JSONWriter) {
        writer.verbatim(#","version":"#)
        writer.int(version)
    }

    static func writeEnd(at time: Int64, to writer: inout JSONWriter) {
        writer.verbatim(#","at":"#)
        writer.int(time)
        writer.verbatim("}}")
    }

    /// `state`, `code`, `params` and `message` of a field result, as members that follow others.
    package static func writeResult(_ result: FieldResult, to writer: inout JSONWriter) {
        writer.verbatim(#","state":"#)
        writer.string(result.state.rawValue)
        writer.verbatim(#","code":"#)
        writer.string(result.code)
        writer.verbatim(#","params":"#)
        writer.fields(result.params)
        writer.verbatim(#","message":"#)
        writer.string(result.message)
    }

    /// `state` of a submission, with its result (`account` or `friend`) on success or `code`,
    /// `params`, `message` on failure.
    package static func writeSubmission(_ state: SubmissionState, of action: SubmitAction, to writer: inout JSONWriter) {
        writer.key("state"); writer.string(action.stateNames.name(of: state))
        switch state {
        case .succeeded(let result):
            writer.key(escaping: action.resultName); writer.value(result)
        case .failed(let failure):
            writer.key("code"); writer.string(failure.code)
            writer.key("params"); writer.fields(failure.params)
            writer.key("message"); writer.string(failure.message)
        case .idle, .submitting:
            break
        }
    }
}
