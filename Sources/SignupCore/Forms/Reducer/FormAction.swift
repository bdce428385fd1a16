/// Everything that can happen to a form, as data: what the person does (edit, tap) and what the
/// form's effects report back (a check came due or answered, the submission moved on).
/// `FormReducer` turns each into the form's next state, the events to send and the effects to run.
enum FormAction {
    /// The field at this position now holds `value`; its patterns may spend `budget`.
    case edit(field: Int, value: String, budget: MatchBudget)
    /// A field's value has been quiet for the debounce interval of its check at position `check`,
    /// and every check before it passed: ask it, or reuse the answer remembered for the same question.
    case checkDue(field: Int, check: Int = 0, value: String, version: Int)
    /// The backend answered the field's check at position `check` about `value` at `version`; a
    /// failure is `unavailable`.
    case checkAnswered(field: Int, check: Int = 0, value: String, version: Int, answer: Result<CheckVerdict, any Error>)
    /// Submit was tapped.
    case tap
    /// The running submission reached a new state.
    case submissionChanged(SubmissionState)
    /// The backend refused the submission with issues about fields (each naming one), which go
    /// on those fields unless they were edited since the tap, and the submission fails.
    case submissionRefused(fieldIssues: [ReportedIssue], failure: SubmissionFailure)
    /// The running submission ended (after its last state, or cancelled).
    case submissionEnded
}
