/// What a form's submit does with the values snapshotted at the tap, and the messages of its outcomes.
public struct SubmitAction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Registers a new account from the named username and password fields.
        case registerAccount(usernameField: String, passwordField: String)
    }

    public var kind: Kind
    /// The backend refused because the name is no longer free (it lost a race).
    public var taken: Message
    /// The backend refused for another reason; the submission may be retried.
    public var refused: Message
    /// The backend could not be reached.
    public var unavailable: Message

    public init(kind: Kind, taken: Message, refused: Message, unavailable: Message) {
        self.kind = kind
        self.taken = taken
        self.refused = refused
        self.unavailable = unavailable
    }

    /// The fields the action reads.
    public var fieldNames: [String] {
        switch kind {
        case .registerAccount(let username, let password): return [username, password]
        }
    }
}
