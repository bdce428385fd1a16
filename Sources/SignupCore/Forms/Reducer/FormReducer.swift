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
                guard form.remoteResults[judged] != nil else { return }
                effects.append(verdict.needsRemoteCheck
                    ? .check(field: judged, value: verdict.value, version: verdict.version)
                    : .cancelCheck(field: judged, version: verdict.version))
            })
            return .edited(version: version ?? state.version)

        case .checkDue(let field, let value, let version):
            if let answer = state.rememberedAnswer(forField: field, value: value) {
                state.applyRemote(answer, toField: field, version: version, in: form, into: &events)
            } else {
                effects.append(.ask(field: field, value: value, version: version))
            }

        case .checkAnswered(let field, let value, let version, let answer):
            guard let results = form.remoteResults[field] else { return .done }
            let result: ResultID
            switch answer {
            case .success(let verdict):
                result = verdict == .passed ? results.passed : results.rejected
                state.remember(result, for: value, ofField: field)
            case .failure:
                result = results.unavailable
            }
            state.applyRemote(result, toField: field, version: version, in: form, into: &events)

        case .tap:
            if let rejection = state.submitRejection { return .refused(rejection) }
            guard !state.isSubmissionRunning else { return .done }
            state.isSubmissionRunning = true
            effects.append(.submit(values: state.values))
            state.apply(.submitting, into: &events)

        case .submissionChanged(let submission):
            // A registration makes its name taken: what was remembered as free may no longer be.
            if case .succeeded = submission, case .registerAccount = form.definition.submit.kind { state.forgetAnswers() }
            state.apply(submission, into: &events)

        case .submissionEnded:
            state.isSubmissionRunning = false
        }
        return .done
    }

    /// The opening state of a form with `values` (by position), and the checks its opening
    /// values need; patterns spend `budget`.
    static func opening(_ values: [String], in form: LocalizedForm, budget: MatchBudget, effects: inout FormEffects) -> FormState {
        let judged = values.indices.map { form.validator.normalized(values[$0], ofField: $0) }
        let verdicts = values.indices.map { form.validator.verdict(forField: $0, version: 0, budget: budget, valueAt: { judged[$0] }) }
        for (field, verdict) in verdicts.enumerated() where form.remoteResults[field] != nil && verdict.needsRemoteCheck {
            effects.append(.check(field: field, value: verdict.value, version: 0))
        }
        return FormState(values: values, judged: judged, verdicts: verdicts)
    }
}
