/// The value is used in this field by no account registered with this form kind (compared as the
/// field normalises it, case-insensitively); the registration claims it atomically. Its answer is
/// the form's own message, so it never echoes the value.
public struct UniqueCheck: CheckKind {
    public static let name = "unique"
    public var answerer: CheckAnswerer { .directoryFields }
    public var countsAgainstBudgets: Bool { true }
    public var passesWhenUnavailable: Bool { false }
    public var mayEchoItsValue: Bool { false }
    public var claimsTheValue: Bool { true }

    public init() {}
}
