/// What a field's checks that read only its own value said of that value, for its first eight
/// checks: judging the field again for another field's edit (a password beside a changed
/// username) then runs only the checks that read the other field. Kept beside the field's value
/// and forgotten whenever the value changes; two bytes, within `FormState.Field`'s padding.
struct OwnValueOutcomes: Equatable {
    private var known: UInt8 = 0
    private var failing: UInt8 = 0

    /// Nothing known: every check runs.
    static let none = OwnValueOutcomes()

    /// What the check at `position` said, when it is kept.
    func outcome(ofCheckAt position: Int) -> CheckOutcome? {
        guard position < UInt8.bitWidth, known & (1 << position) != 0 else { return nil }
        return failing & (1 << position) != 0 ? .fails : .passes
    }

    /// Keeps what the check at `position` said; an undecided outcome is not kept, so that the
    /// check runs again (a value too costly to check is retried).
    mutating func keep(_ outcome: CheckOutcome, ofCheckAt position: Int) {
        guard position < UInt8.bitWidth, outcome != .tooCostly else { return }
        known |= 1 << position
        if outcome == .fails { failing |= 1 << position }
    }
}
