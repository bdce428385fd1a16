/// A kind of remote check, as a type that carries everything the rest of the system asks of it.
/// `RemoteCheck.Kind` registers each kind once (`RemoteCheck.Kind.type`); adding a kind is its
/// type's file, a case and a line there, its form-file entry and its docs.
public protocol CheckKind: Hashable, Sendable {
    /// The kind's name in form files and descriptions.
    static var name: String { get }
    /// The other fields whose values it sends, in the order its question carries them.
    var reads: [String] { get }
    /// Who answers it.
    var answerer: CheckAnswerer { get }
    /// Whether it tells whether a value is registered, so a client's and the store's check budgets
    /// count it (`CheckBudget`): asked freely, it would let anyone harvest who has signed up.
    var countsAgainstBudgets: Bool { get }
    /// Whether the field passes, named apart (`check.skipped`), when its backend cannot be reached.
    var passesWhenUnavailable: Bool { get }
    /// Whether a backend's answer may carry the value back in its own words, so a recording and
    /// the trace must look for a secret value in it.
    var mayEchoItsValue: Bool { get }
    /// Whether it compares the value as the field normalises it, and the registration claims it
    /// atomically (`unique`).
    var claimsTheValue: Bool { get }
}

/// Who answers a kind of check.
public enum CheckAnswerer: Hashable, Sendable {
    /// The directory's own question, whether a username is free (`checkAvailability`); a
    /// recording keeps it as an `availability` call, and a script answers it by name lists.
    case directoryAvailability
    /// The directory's store of registered fields (`UniqueValueChecking`).
    case directoryFields
    /// The network, through the process's HTTP engine (`HTTPChecks`).
    case network
}

extension CheckKind {
    public var reads: [String] { [] }
}

extension RemoteCheck.Kind {
    /// The kind's type: the one place that turns a case into what it carries.
    public var type: any CheckKind {
        switch self {
        case .usernameAvailability: UsernameAvailabilityCheck()
        case .http(let check): check
        case .unique: UniqueCheck()
        case .breachedPassword(let check): check
        }
    }

    /// The kind's name in form files and descriptions.
    public var name: String { Swift.type(of: type).name }
}
