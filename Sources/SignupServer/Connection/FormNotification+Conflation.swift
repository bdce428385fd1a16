import SignupProtocol
import SignupTransport

extension FormNotification {
    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    package var conflationKey: ConflationKey? {
        switch content {
        case .event(.fieldChanged(let update)): ConflationKey(group: form, topic: update.field)
        case .event(.submitEnabledChanged): ConflationKey(group: form, topic: "")
        // Only the latest presence of a field matters; a NUL keeps the topic apart from any field's.
        case .event(.presenceChanged(let update)): ConflationKey(group: form, topic: "\u{0}presence\u{0}" + update.field)
        case .event(.submissionChanged), .submission: nil
        // Deferred to a queue that never conflates, so never asked.
        case .encodedField: nil
        }
    }
}
