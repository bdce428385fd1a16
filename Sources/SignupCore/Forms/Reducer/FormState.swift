/// A form's whole state as a value, changed in place by `FormReducer`: what it shows (each
/// field's value and result, the submission, whether submit is enabled) and what its policies
/// remember (each checked field's last answer, whether a submission runs). Each change is applied
/// whole before any event about it is sent, so views never see a mix of old and new results (no
/// glitch in `submitEnabled`).
struct FormState {
    // In this order the members pack into 48 bytes (two strings, then the 8-byte version, the
    // 5-byte result, the flag and the two bytes of kept outcomes): a form's fields fill fewer
    // cache lines.
    struct Field {
        var value: String
        /// `value` normalised as the field's rules read it: normalised once per edit, however many
        /// fields' rules read it.
        var judged: String
        /// The edit version of the input `result` judges.
        var version: Int
        /// In the form's `ResultTable`.
        var result: ResultID
        /// Whether the field passed its local rules and waits for a remote check of `version`.
        var awaitingRemote: Bool
        /// What its checks said of `judged` and of the values they read (`KeptOutcomes`), from
        /// its last verdict; forgotten when the value changes, a check's when a field it reads does.
        var kept: KeptOutcomes
    }

    /// Each field's value and result together, so that an edit finds both in one place.
    private(set) var fields: [Field]
    /// How many edits have changed a value: the version of the newest. Versions count edits
    /// across the whole form, from 0 for the values it opened with, so "newer" is comparable
    /// between fields.
    private(set) var version = 0
    /// How many fields are not `ok`, and how many of those are `validating`: kept so that asking
    /// whether submit is enabled costs the same for a form of any size.
    private(set) var notOK: Int
    private(set) var validating = 0
    /// Whether `submission` is `submitting`, beside the counts: a keystroke asks whether submit is
    /// enabled, and the submission (41 bytes) comes last, away from what a keystroke reads.
    private(set) var isSubmitting = false
    private(set) var submission: SubmissionState = .idle
    /// Whether a submission runs, from the tap until it ends: a tap meanwhile starts nothing
    /// (`flatMapFirst`). It outlasts `submitting` by the moment between the last state and the end.
    var isSubmissionRunning = false
    /// The form's version at the latest accepted tap: a field edited since holds a value that
    /// submission did not send.
    var submittedVersion = 0
    /// The last answer of each check, by its place, with the value and the other fields' values it
    /// was asked about; empty until one answers. Asking the same question again reuses it instead
    /// of asking the backend.
    private(set) var remembered: [(value: String, others: [String], verdict: CheckVerdict)?] = []
    /// What a backend reported of a field, for the fields that show such a result (`ResultID.reported`),
    /// by position; empty until a backend reports something.
    private(set) var reported: [FieldResult?] = []
    /// Each field's presence by position, for a form with conditions (`FormConditions`); empty
    /// for any other form, whose fields are always shown and required as declared.
    private(set) var presence: [FieldPresence] = []

    /// Whether the field at `index` is shown.
    func isShown(_ index: Int) -> Bool {
        presence.isEmpty || presence[index].shown
    }

    /// The opening state: `values` at version 0, as the rules read them (`judged`), with their
    /// verdicts, all by position, and the fields' presence for a form with conditions.
    init(values: [String], judged: [String], verdicts: [LocalVerdict], presence: [FieldPresence] = []) {
        self.presence = presence
        fields = values.indices.map { index in
            Field(value: values[index], judged: judged[index], version: 0, result: verdicts[index].result,
                  awaitingRemote: verdicts[index].needsRemoteCheck, kept: verdicts[index].kept)
        }
        notOK = fields.count { $0.result.state != .ok }
        validating = fields.count { $0.result.state == .validating }
    }

    /// The verdict remembered for the check at `place`, if `value` and `others` are what it last
    /// answered about.
    func rememberedVerdict(ofCheckAt place: Int, for value: String, others: [String]) -> CheckVerdict? {
        guard place < remembered.count, let answer = remembered[place], answer.value == value, answer.others == others else { return nil }
        return answer.verdict
    }

    /// Keeps a check's verdict about `value` and `others`, replacing its last.
    mutating func remember(_ verdict: CheckVerdict, for value: String, others: [String], ofCheckAt place: Int, checks: Int) {
        if remembered.isEmpty { remembered = Array(repeating: nil, count: checks) }
        remembered[place] = (value, others, verdict)
    }

    /// Forgets every remembered answer: a registration can change what the backend says.
    mutating func forgetAnswers() {
        remembered = []
    }

    /// Whether the field at `index` waits for remote checks of `version`.
    func isAwaitingRemote(_ index: Int, version: Int) -> Bool {
        fields[index].awaitingRemote && fields[index].version == version
    }

    /// The values of the form's secret fields as they were sent (normalised), the empty ones left
    /// out: what a backend's words must never carry back to any output.
    func secretValues(in form: LocalizedForm) -> [String] {
        form.definition.fields.indices.compactMap { index in
            form.definition.fields[index].isSecret && !fields[index].judged.isEmpty ? fields[index].judged : nil
        }
    }

    /// Every field's value as it is now, by position, for a submission: a hidden field's is empty.
    var values: [String] { fields.indices.map { isShown($0) ? fields[$0].value : "" } }

    var submitEnabled: Bool {
        notOK == 0 && !isSubmitting && !isSubmitted
    }

    /// Whether a submission succeeded and no field has been edited since its tap: the form is
    /// done, and submit stays disabled until the person changes something.
    private(set) var isSubmitted = false

    /// Whether any field is waiting for a remote check's answer.
    var isValidating: Bool { validating > 0 }

    /// The reason a tap would be turned down now, or nil when it would be accepted.
    var submitRejection: SubmitRejection? {
        if isSubmitting { return .submitting }
        if isSubmitted { return .submitted }
        if validating > 0 { return .validating }
        if notOK > 0 { return .invalid }
        return nil
    }

    // Each change below appends its events to `change` in the order `FormEvent` documents: the
    // changed fields in form order, the submission, then whether submit is enabled if that
    // changed too. The form sends them; one access to the state makes the whole change.

    /// Sets one field's value as the next edit and judges it and every field that reads it by
    /// `form`'s local rules, patterns spending `budget`, each verdict also handed to `judged`
    /// (which must not reach this state). Returns the new version, or nil, changing nothing, when
    /// the field holds that value already and was not judged too costly to check.
    mutating func edit(
        _ index: Int, to value: String, in form: LocalizedForm, budget: MatchBudget, into change: inout ChangeEvents,
        judged: (_ field: Int, _ verdict: LocalVerdict) -> Void
    ) -> Int? {
        guard fields[index].value != value || fields[index].result == form.validator.tooCostly else { return nil }
        let wasEnabled = submitEnabled
        version += 1
        isSubmitted = false
        fields[index].value = value
        fields[index].judged = form.validator.normalized(value, ofField: index)
        fields[index].kept = .none
        // By position: the list bound whole was retained around the calls out.
        for position in 0..<form.validator.dependents[index].count {
            let field = form.validator.dependents[index][position]
            // A hidden field is never judged, and keeps nothing (hiding it applied a verdict
            // that keeps nothing).
            guard isShown(field) else { continue }
            // What its checks that read the edited field said is stale.
            if field != index { fields[field].kept.forget(form.validator.keptChecks(ofField: field, reading: index)) }
            let verdict = form.validator.verdict(forField: field, version: version, budget: budget, required: presence.isEmpty ? nil : presence[field].required,
                                                 kept: fields[field].kept, valueAt: { fields[$0].judged })
            if apply(verdict, toField: field) { change.append(.fieldChanged(update(ofField: field, in: form))) }
            judged(field, verdict)
        }
        if let conditions = form.definition.conditions, conditions.isRead[index] {
            updatePresence(conditions, in: form, budget: budget, into: &change, judged: judged)
        }
        appendSubmitEnabled(ifChangedFrom: wasEnabled, into: &change)
        return version
    }

    /// Asks the form's conditions again after an edit of a field they read: each field whose
    /// presence changed gets its event, then, when shown, its result judged afresh (hidden, it
    /// counts as ok and its checks are cancelled, and no result is sent).
    private mutating func updatePresence(
        _ conditions: FormConditions, in form: LocalizedForm, budget: MatchBudget, into change: inout ChangeEvents,
        judged: (_ field: Int, _ verdict: LocalVerdict) -> Void
    ) {
        let next = conditions.presence(for: fields.map(\.judged))
        for field in conditions.conditionalFields where next[field] != presence[field] {
            let wasShown = presence[field].shown
            presence[field] = next[field]
            change.append(.presenceChanged(PresenceUpdate(field: form.fieldNames[field], presence: next[field])))
            if next[field].shown {
                let verdict = form.validator.verdict(forField: field, version: version, budget: budget, required: next[field].required,
                                                     kept: fields[field].kept, valueAt: { fields[$0].judged })
                if apply(verdict, toField: field) || !wasShown { change.append(.fieldChanged(update(ofField: field, in: form))) }
                judged(field, verdict)
            } else {
                let verdict = LocalVerdict(result: form.validator.hiddenResult(ofField: field), version: version, needsRemoteCheck: false,
                                           value: fields[field].judged)
                _ = apply(verdict, toField: field)
                judged(field, verdict)
            }
        }
    }

    /// What a field's result is now, as an event reports it.
    func update(ofField index: Int, in form: LocalizedForm) -> FieldUpdate {
        // The result and version read alone: a copy of the whole field counted its two strings.
        let id = fields[index].result
        let result = id == .reported ? reported[index]! : form.results[id]
        return FieldUpdate(field: form.fieldNames[index], result: result, version: fields[index].version)
    }

    /// Takes a field's new local verdict; returns whether its result changed.
    mutating func apply(_ verdict: LocalVerdict, toField index: Int) -> Bool {
        fields[index].version = verdict.version
        fields[index].awaitingRemote = verdict.needsRemoteCheck
        fields[index].kept = verdict.kept
        return setResult(verdict.result, ofField: index)
    }

    /// Takes a remote check's answer for the version it checked, unless the field has moved on
    /// (the answer is stale).
    mutating func applyRemote(_ result: ResultID, toField index: Int, version: Int, in form: LocalizedForm, into change: inout ChangeEvents) {
        guard fields[index].awaitingRemote, fields[index].version == version else { return }
        let wasEnabled = submitEnabled
        fields[index].awaitingRemote = false
        if setResult(result, ofField: index) { change.append(.fieldChanged(update(ofField: index, in: form))) }
        appendSubmitEnabled(ifChangedFrom: wasEnabled, into: &change)
    }

    /// Takes what a backend reported of the value a remote check asked about at `version` (as
    /// `applyRemote` does): a result no form declared, which lasts until the field is edited.
    mutating func applyReported(
        _ result: FieldResult, toField index: Int, version: Int, in form: LocalizedForm, into change: inout ChangeEvents
    ) {
        guard fields[index].awaitingRemote, fields[index].version == version else { return }
        let wasEnabled = submitEnabled
        show(reported: result, onField: index, in: form, into: &change)
        appendSubmitEnabled(ifChangedFrom: wasEnabled, into: &change)
    }

    /// Takes a refused submission: each field's reported result (by position, in form order) goes
    /// on it unless it was edited since the tap, then the submission fails; one change. While the
    /// submission runs submit is disabled, so only the failure can change whether it is enabled.
    mutating func applyReported(
        _ results: [(field: Int, result: FieldResult)], failure: SubmissionFailure, in form: LocalizedForm,
        into change: inout ChangeEvents
    ) {
        for (index, result) in results where fields[index].version <= submittedVersion {
            show(reported: result, onField: index, in: form, into: &change)
        }
        apply(.failed(failure), into: &change)
    }

    /// Takes what a form's document check found at a tap: the first issue of each field shown on
    /// it (until it is edited), in form order; an issue about the whole fails the submission.
    mutating func applyDocumentIssues(_ issues: [ReportedIssue], in form: LocalizedForm, into change: inout ChangeEvents) {
        let wasEnabled = submitEnabled
        var shown = Set<Int>()
        let placed = issues.compactMap { issue -> (Int, FieldResult)? in
            guard let name = issue.field, let index = form.index(ofField: name), isShown(index), shown.insert(index).inserted else { return nil }
            return (index, issue.failedResult)
        }
        for (index, result) in placed.sorted(by: { $0.0 < $1.0 }) { show(reported: result, onField: index, in: form, into: &change) }
        let whole = issues.first { issue in issue.field.flatMap { form.index(ofField: $0) }.map { !isShown($0) } ?? true }
        if let whole, submission != .failed(SubmissionFailure(code: whole.code, params: whole.params, message: whole.message)) {
            apply(.failed(SubmissionFailure(code: whole.code, params: whole.params, message: whole.message)), into: &change, enabledBefore: wasEnabled)
        } else {
            appendSubmitEnabled(ifChangedFrom: wasEnabled, into: &change)
        }
    }

    /// Puts a backend's result on a field, kept beside it, with its event unless it shows already.
    private mutating func show(reported result: FieldResult, onField index: Int, in form: LocalizedForm, into change: inout ChangeEvents) {
        let shownBefore = fields[index].result == .reported ? reported[index] : nil
        fields[index].awaitingRemote = false
        _ = setResult(.reported, ofField: index)
        if reported.isEmpty { reported = Array(repeating: nil, count: fields.count) }
        reported[index] = result
        if shownBefore != result { change.append(.fieldChanged(update(ofField: index, in: form))) }
    }

    /// Takes the submission's new state; `enabledBefore` is whether submit was enabled before the
    /// change this is part of began (now, when nil).
    mutating func apply(_ submission: SubmissionState, into change: inout ChangeEvents, enabledBefore: Bool? = nil) {
        guard submission != self.submission else { return }
        let wasEnabled = enabledBefore ?? submitEnabled
        self.submission = submission
        isSubmitting = if case .submitting = submission { true } else { false }
        // Final only if nothing was edited since the tap: values typed meanwhile are not submitted.
        isSubmitted = if case .succeeded = submission { version == submittedVersion } else { false }
        change.append(.submissionChanged(submission))
        appendSubmitEnabled(ifChangedFrom: wasEnabled, into: &change)
    }

    private func appendSubmitEnabled(ifChangedFrom wasEnabled: Bool, into change: inout ChangeEvents) {
        if submitEnabled != wasEnabled { change.append(.submitEnabledChanged(submitEnabled)) }
    }

    private mutating func setResult(_ result: ResultID, ofField index: Int) -> Bool {
        let old = fields[index].result
        guard result != old else { return false }
        notOK += (result.state == .ok ? 0 : 1) - (old.state == .ok ? 0 : 1)
        validating += (result.state == .validating ? 1 : 0) - (old.state == .validating ? 1 : 0)
        fields[index].result = result
        if old == .reported { reported[index] = nil }
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
    /// A submission succeeded and no field has been edited since.
    case submitted

    public var description: String {
        switch self {
        case .invalid: return "the form has empty or invalid fields"
        case .validating: return "a field is still being checked"
        case .submitting: return "a submission is already in flight"
        case .submitted: return "the form was submitted and has not been edited since"
        }
    }
}
