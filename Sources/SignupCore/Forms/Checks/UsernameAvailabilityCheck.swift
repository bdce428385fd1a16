/// The directory's own question: is this username free? Counted against check budgets, never
/// passed when the directory cannot answer, and recorded as an `availability` call.
public struct UsernameAvailabilityCheck: CheckKind {
    public static let name = "usernameAvailability"
    public var answerer: CheckAnswerer { .directoryAvailability }
    public var countsAgainstBudgets: Bool { true }
    public var passesWhenUnavailable: Bool { false }
    public var mayEchoItsValue: Bool { true }
    public var claimsTheValue: Bool { false }

    public init() {}
}
