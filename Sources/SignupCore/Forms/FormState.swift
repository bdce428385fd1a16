/// One change to a form's state, from the three sources that can change it.
enum FormChange {
    /// Every field's local verdict after an edit.
    case local([LocalVerdict])
    /// A remote check's answer for one field, for the version it checked.
    case remote(field: Int, version: Int, result: FieldResult)
    case submission(SubmissionState)
}

/// A form's whole visible state. Every change produces one consistent state, so views derived
/// from it never see a mix of old and new results (no glitch in `submitEnabled`).
struct FormState {
    var results: [FieldResult]
    var versions: [Int]
    var awaitingRemote: [Bool]
    var submission: SubmissionState = .idle

    init(fieldCount: Int) {
        results = Array(repeating: FieldResult(state: .empty, code: "", message: ""), count: fieldCount)
        versions = Array(repeating: -1, count: fieldCount)
        awaitingRemote = Array(repeating: false, count: fieldCount)
    }

    var submitEnabled: Bool {
        submission != .submitting && results.allSatisfy(\.isOK)
    }

    /// The reason a tap would be turned down now, or nil when it would be accepted.
    var submitRejection: SubmitRejection? {
        if submission == .submitting { return .submitting }
        if results.contains(where: { $0.state == .validating }) { return .validating }
        if !results.allSatisfy(\.isOK) { return .invalid }
        return nil
    }

    func applying(_ change: FormChange) -> FormState {
        var next = self
        switch change {
        case .local(let verdicts):
            // A field keeps its result (possibly a remote answer) until its own inputs change.
            for (index, verdict) in verdicts.enumerated() where verdict.version != versions[index] {
                next.results[index] = verdict.result
                next.versions[index] = verdict.version
                next.awaitingRemote[index] = verdict.needsRemoteCheck
            }
        case .remote(let index, let version, let result):
            guard awaitingRemote[index], versions[index] == version else { return self }
            next.results[index] = result
            next.awaitingRemote[index] = false
        case .submission(let submission):
            next.submission = submission
        }
        return next
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
