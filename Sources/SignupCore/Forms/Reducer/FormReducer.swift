/// The whole behaviour of every form kind, as one function of its state and an action: the
/// form's next state, the events to send (into `ChangeEvents`) and the effects to run (into
/// `FormEffects`). It runs no effect itself, so each step can be checked as values.
///
/// Read beside RxSwift's `GithubSignupViewModel1`:
/// - `validatedUsername = username.flatMapLatest { validate(username) }`: an edit judges the
///   field (and every field whose rules read it) at once; a field with a remote check shows
///   `validating` and asks for a `check`, latest only, after the quiet period.
/// - `validatedPasswordRepeated = combineLatest(password, repeatedPassword)`: the dependents of
///   the edited field are judged again in the same step (`LocalValidator.dependents`).
/// - `signupEnabled = combineLatest(validations…, signingIn) { all ok && !signingIn }`: the state
///   keeps counts of fields not ok and whether a submission runs; an event goes out when it flips.
/// - `signedIn = loginTaps.withLatestFrom(values).flatMapLatest { API.signup }`: here a tap is
///   accepted only while submit is enabled, takes the values as they are, and starts a `submit`
///   that runs alone (`flatMapFirst`); its states come back as actions.
enum FormReducer {
    /// What an action came to, for the caller that sent it.
    enum Answer: Equatable {
        case done
        /// An edit: the form's version after it (unchanged when the field held the value already).
        case edited(version: Int)
        /// A tap turned down, and why.
        case refused(SubmitRejection)
    }

    /// Applies `action`.
    @discardableResult
    static func reduce(
        _ state: inout FormState, _ action: consuming FormAction, in form: LocalizedForm,
        events: inout ChangeEvents, effects: inout FormEffects
    ) -> Answer {
        switch consume action {
        case .edit(let field, let value, let budget):
            let version = state.edit(field, to: value, in: form, budget: budget, into: &events, judged: { judged, verdict in
                guard form.isChecked[judged] else { return }
                effects.append(verdict.needsRemoteCheck
                    ? .check(field: judged, value: verdict.value, version: verdict.version)
                    : .cancelCheck(field: judged, version: verdict.version))
            })
            return .edited(version: version ?? state.version)

        case .checkDue(let field, let check, let value, let version):
            guard state.isAwaitingRemote(field, version: version) else { return .done }
            let checked = form.remoteChecks[field][check]
            let others = checked.reads.isEmpty ? [] : checked.reads.map { state.fields[$0].judged }
            if let verdict = state.rememberedVerdict(ofCheckAt: checked.place, for: value, others: others) {
                settle(field, check, value: value, version: version, .success(verdict), state: &state, in: form, events: &events, effects: &effects)
            } else {
                effects.append(.ask(field: field, check: check, value: value, others: others, version: version))
            }

        case .checkAnswered(let field, let check, let value, let version, let answer):
            let checked = form.remoteChecks[field][check]
            // The other fields' values it was asked with are today's while the answer is current;
            // a check that reads none is about its value alone, current or not.
            if case .success(let verdict) = answer, checked.reads.isEmpty || state.isAwaitingRemote(field, version: version) {
                let others = checked.reads.map { state.fields[$0].judged }
                state.remember(verdict, for: value, others: others, ofCheckAt: checked.place, checks: form.remoteCheckCount)
            }
            settle(field, check, value: value, version: version, answer, state: &state, in: form, events: &events, effects: &effects)

        case .tap:
            if let rejection = state.submitRejection { return .refused(rejection) }
            guard !state.isSubmissionRunning else { return .done }
            // The whole object must pass what the definition checks of it (a schema's verdict).
            if let check = form.definition.documentCheck {
                let issues = check.issues(values: state.fields.indices.map { state.isShown($0) ? state.fields[$0].judged : "" },
                                          shown: state.fields.indices.map(state.isShown))
                if !issues.isEmpty {
                    state.applyDocumentIssues(issues.map { $0.hiding(state.secretValues(in: form)) }, in: form, into: &events)
                    return .refused(.invalid)
                }
            }
            state.isSubmissionRunning = true
            state.submittedVersion = state.version
            effects.append(.submit(values: state.values, leftOut: state.fields.indices.filter { !state.isShown($0) }))
            state.apply(.submitting, into: &events)

        case .submissionChanged(let submission):
            // A submission that ended may have taken, or found taken, what was remembered as free.
            switch submission {
            case .succeeded, .failed: state.forgetAnswers()
            case .idle, .submitting: break
            }
            state.apply(submission, into: &events)

        case .submissionRefused(let issues, let failure):
            state.forgetAnswers()
            // In form order, the first issue of each field, as `FormEvent` orders a change.
            var shown: [Int: FieldResult] = [:]
            for issue in issues {
                guard let name = issue.field, let field = form.index(ofField: name), shown[field] == nil else { continue }
                shown[field] = issue.hiding(state.secretValues(in: form)).failedResult
            }
            state.applyReported(shown.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, failure: failure, in: form, into: &events)

        case .submissionEnded:
            state.isSubmissionRunning = false
        }
        return .done
    }

    /// Applies one check's answer: a rejection or an unavailable backend is the field's result; a
    /// pass moves on to the field's next check, and the last pass makes the field `ok`.
    private static func settle(
        _ field: Int, _ check: Int, value: String, version: Int, _ answer: Result<CheckVerdict, any Error>,
        state: inout FormState, in form: LocalizedForm, events: inout ChangeEvents, effects: inout FormEffects
    ) {
        let checks = form.remoteChecks[field]
        let results = checks[check]
        switch answer {
        case .success(.passed): break
        case .success(.rejected(nil)):
            return state.applyRemote(results.rejected, toField: field, version: version, in: form, into: &events)
        case .success(.rejectedWith(let params)):
            let result = form.localizer.result(results.check.rejected, .failed, params)
            return state.applyReported(result, toField: field, version: version, in: form, into: &events)
        case .success(.rejected(let issue?)):
            return state.applyReported(issue.hiding(state.secretValues(in: form)).failedResult, toField: field, version: version, in: form, into: &events)
        case .failure(BackendError.checkBudgetExceeded(let exceeded)):
            // Never passed, whatever the check does when its backend is down: that would open the budget.
            let result = form.localizer.result(CheckBudget.exceededMessage, .failed, ["retryAfter": .int(exceeded.retryAfter)])
            return state.applyReported(result, toField: field, version: version, in: form, into: &events)
        case .failure:
            guard results.passesWhenUnavailable else {
                return state.applyRemote(results.unavailable, toField: field, version: version, in: form, into: &events)
            }
            // Fail-open: passed, and said so when it decides the field.
            if check + 1 == checks.count {
                return state.applyRemote(results.skipped, toField: field, version: version, in: form, into: &events)
            }
        }
        guard check + 1 < checks.count else {
            return state.applyRemote(results.passed, toField: field, version: version, in: form, into: &events)
        }
        guard state.isAwaitingRemote(field, version: version) else { return }
        effects.append(.check(field: field, check: check + 1, value: value, version: version))
    }

    /// The opening state of a form with `values` (by position), and the checks its opening
    /// values need; patterns spend `budget`.
    static func opening(_ values: [String], in form: LocalizedForm, budget: MatchBudget, effects: inout FormEffects) -> FormState {
        let judged = values.indices.map { form.validator.normalized(values[$0], ofField: $0) }
        let presence = form.definition.conditions?.presence(for: judged) ?? []
        let verdicts = values.indices.map { field in
            guard !presence.isEmpty else { return form.validator.verdict(forField: field, version: 0, budget: budget, valueAt: { judged[$0] }) }
            // A hidden field is never judged.
            guard presence[field].shown else {
                return LocalVerdict(result: form.validator.hiddenResult(ofField: field), version: 0, needsRemoteCheck: false, value: judged[field])
            }
            return form.validator.verdict(forField: field, version: 0, budget: budget, required: presence[field].required, valueAt: { judged[$0] })
        }
        for (field, verdict) in verdicts.enumerated() where form.isChecked[field] && verdict.needsRemoteCheck {
            effects.append(.check(field: field, value: verdict.value, version: 0))
        }
        return FormState(values: values, judged: judged, verdicts: verdicts, presence: presence)
    }
}
