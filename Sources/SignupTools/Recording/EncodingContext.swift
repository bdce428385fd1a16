import SignupProtocol
import SignupServer

/// What the encoder judges the records after it by, noted among them but no line itself.
enum EncodingContext: Sendable {
    /// The form `id` was opened as a form of this kind, or closed (nil), so the edits that follow
    /// name its fields.
    case formKind(id: String, SecretFieldsOfKind?)
    /// The plain edits noted from here on (`RecordLog.appendKeptEdit`) are these lines, in order.
    case editLines(KeptEditLines)
    /// The next plain edit's value, if secret, is compared by its field's rules with these values
    /// of other fields (`Rule.Check.fieldsComparedByLikeness`), as the form held them.
    case comparedValues([String: String])
}
