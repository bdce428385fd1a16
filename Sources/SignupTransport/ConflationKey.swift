/// Identifies messages of which only the latest matters while a client lags (one field's result,
/// one form's `submitEnabled`: the sender says which). A message with none is never dropped.
package struct ConflationKey: Hashable, Sendable {
    package var group: String
    package var topic: String

    package init(group: String, topic: String) {
        self.group = group
        self.topic = topic
    }
}
