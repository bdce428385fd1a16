/// A check of a field's value that needs a backend, such as username availability.
public struct RemoteCheck: Hashable, Sendable {
    /// Which backend question is asked.
    public enum Kind: String, Hashable, Sendable {
        case usernameAvailability
    }

    public var kind: Kind
    /// Shown from the keystroke until the answer arrives.
    public var validating: Message
    /// Shown when the backend accepts the value.
    public var passed: Message
    /// Shown when the backend rejects the value.
    public var rejected: Message
    /// Shown when the backend cannot be reached or fails.
    public var unavailable: Message

    public init(kind: Kind, validating: Message, passed: Message, rejected: Message, unavailable: Message) {
        self.kind = kind
        self.validating = validating
        self.passed = passed
        self.rejected = rejected
        self.unavailable = unavailable
    }
}
