/// What a field's checks said of its value, and of the other fields' values they read, for its
/// first eight checks: judging the field again for another field's edit (a password beside a
/// changed username) then runs only the checks that read the edited field. Kept beside the
/// field's value; a check's outcome is forgotten when the field's value or a field it reads
/// changes (`forget`), every outcome when its own value does. Two bytes, within
/// `FormState.Field`'s padding.
struct KeptOutcomes: Equatable {
    private var known: UInt8 = 0
    private var failing: UInt8 = 0

    /// Nothing known: every check runs.
    static let none = KeptOutcomes()

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

    /// Forgets the outcomes of the checks whose positions are the set bits of `checks`.
    mutating func forget(_ checks: UInt8) {
        known &= ~checks
        failing &= ~checks
    }
}
