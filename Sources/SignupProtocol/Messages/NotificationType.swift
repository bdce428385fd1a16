/// A notification the server sends: a value of its params that writes itself, whole, as the
/// message. Registered once, in `Messages.notifications`.
package protocol NotificationType: Sendable {
    /// The method's name on the wire.
    static var method: String { get }
    /// What the protocol's documents say of it: among it, every member its params may hold, in the
    /// order written (some only in some states).
    static var documentation: NotificationDocumentation { get }

    /// Writes the whole message: `jsonrpc`, `method` and `params`, whose first member is `form`
    /// and last is `at`.
    func write(to writer: inout JSONWriter)

    /// Whether, written, it may hold a member that the trace hides in a message out (one named
    /// for a secret, `SecretRedaction.namesSecretMember`, holding more than a flag): the trace
    /// searches only such messages. False only where every member's name is known.
    var mayNameSecretMember: Bool { get }
}
