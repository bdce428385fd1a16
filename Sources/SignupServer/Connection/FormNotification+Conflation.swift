import SignupProtocol
import SignupTransport

extension FormNotification {
    /// Only the latest field result, and the latest `submitEnabled`, of a form matter; submission
    /// events are never dropped.
    package var conflationKey: ConflationKey? {
        switch content {
        case .event(.fieldChanged(let update)): ConflationKey(group: form, topic: update.field)
        case .event(.submitEnabledChanged): ConflationKey(group: form, topic: "")
        case .event(.submissionChanged), .submission: nil
        // Deferred to a queue that never conflates, so never asked.
        case .encodedField: nil
        }
    }
}
