/// A form's whole visible state, changed in place by edits, remote answers and submissions.
/// Each change is applied whole before any event about it is sent, so views never see a mix of old
/// and new results (no glitch in `submitEnabled`).
struct FormState {
    struct Field {
        /// In the form's `ResultTable`.
        var result: ResultID
        /// The edit version of the input `result` judges.
        var version: Int
        /// Whether the field passed its local rules and waits for a remote check of `version`.
        var awaitingRemote: Bool
    }

    private(set) var fields: [Field]
    private(set) var submission: SubmissionState = .idle
    private let results: ResultTable
    /// How many fields are not `ok`, and how many of those are `validating`: kept so that asking
    /// whether submit is enabled costs the same for a form of any size.
    private var notOK: Int
    private var validating = 0

    init(verdicts: [LocalVerdict], results: ResultTable) {
        self.results = results
        fields = verdicts.map { Field(result: $0.result, version: $0.version, awaitingRemote: $0.needsRemoteCheck) }
        notOK = fields.count { results.state(of: $0.result) != .ok }
        validating = fields.count { results.state(of: $0.result) == .validating }
    }

    var submitEnabled: Bool {
        notOK == 0 && submission != .submitting
    }

    /// Whether any field is waiting for a remote check's answer.
    var isValidating: Bool { validating > 0 }

    /// The reason a tap would be turned down now, or nil when it would be accepted.
    var submitRejection: SubmitRejection? {
        if submission == .submitting { return .submitting }
        if validating > 0 { return .validating }
        if notOK > 0 { return .invalid }
        return nil
    }

    /// Takes a field's new local verdict; returns whether its result changed.
    mutating func apply(_ verdict: LocalVerdict, toField index: Int) -> Bool {
        fields[index].version = verdict.version
        fields[index].awaitingRemote = verdict.needsRemoteCheck
        return setResult(verdict.result, ofField: index)
    }

    /// Takes a remote check's answer for the version it checked; returns nil when the field has
    /// moved on (the answer is stale), else whether its result changed.
    mutating func applyRemote(_ result: ResultID, toField index: Int, version: Int) -> Bool? {
        guard fields[index].awaitingRemote, fields[index].version == version else { return nil }
        fields[index].awaitingRemote = false
        return setResult(result, ofField: index)
    }

    /// Returns whether the submission state changed.
    mutating func apply(_ submission: SubmissionState) -> Bool {
        guard submission != self.submission else { return false }
        self.submission = submission
        return true
    }

    private mutating func setResult(_ result: ResultID, ofField index: Int) -> Bool {
        let old = fields[index].result
        guard result != old else { return false }
        let (state, oldState) = (results.state(of: result), results.state(of: old))
        notOK += (state == .ok ? 0 : 1) - (oldState == .ok ? 0 : 1)
        validating += (state == .validating ? 1 : 0) - (oldState == .validating ? 1 : 0)
        fields[index].result = result
        return true
    }
}

/// Why a tap was not accepted.
public enum SubmitRejection: String, Error, Hashable, Sendable, CustomStringConvertible {
    /// A field is empty or failed.
    case invalid
    /// A remote check has not answered yet.
    case validating
    /// A submission is already in flight.
    case submitting

    public var description: String {
        switch self {
        case .invalid: return "the form has empty or invalid fields"
        case .validating: return "a field is still being checked"
        case .submitting: return "a submission is already in flight"
        }
    }
}
