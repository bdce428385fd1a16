/// Runs one field's check effects under their policies: latest only (each new effect cancels the
/// pending or running one, as `flatMapLatest` does) and debounced (a `check` comes due once the
/// value has been quiet for the check's interval). It decides nothing: what is due or answered
/// goes back to the form as an action.
final class FieldCheck {
    /// A field with remote checks; they are read from the form's definition when asked, not
    /// kept here: a form holds one of these per checked field, for as long as it is open.
    let field: Int
    /// Whether a question is with the backend and not yet answered or cancelled.
    private(set) var isAsking = false
    /// The form, which owns this and cancels it when it closes (also on deinit). Through its
    /// link, so that a timer or answer that finds the form gone does nothing.
    private let formLink: FormLink
    /// How timers and requests reach this: cleared as it goes, so one that outlives it calls nothing.
    private let link = FieldCheckLink()
    /// The debounce timer, or the request once `isAsking`: never both, so one slot.
    private var inFlight: (any Disposable)?
    /// The check's position, the value and its version that the timer or the request is about.
    private var pending: (check: Int, value: String, version: Int)?
    /// When the value being checked was last changed: a later check's quiet interval counts from it
    /// (kept for a field with several checks only).
    private var settledAt = TimePoint.origin

    // Made once and handed to every timer and request, rather than a closure per keystroke.
    private lazy var quietPeriodElapsed: () -> Void = { [link] in link.check?.comeDue() }
    private lazy var answerArrived: (Result<CheckVerdict, any Error>) -> Void = { [link] in link.check?.receive($0) }

    init(field: Int, form: FormPipeline) {
        self.field = field
        formLink = form.link
        link.check = self
    }

    deinit {
        link.check = nil
        cancel()
    }

    /// `FormEffect.check`: replaces whatever was pending; due once the value has been quiet for the
    /// check's interval (at once when it has been already).
    func check(_ check: Int, value: String, version: Int, in form: FormPipeline) {
        cancel()
        let checks = form.localized.remoteChecks[field]
        let interval = checks[check].shared.check.debounce ?? form.debounce
        // The first check waits its interval from now; a later one from when the first began.
        var wait = interval
        if checks.count > 1 {
            let now = form.scheduler.now
            if check == 0 { settledAt = now }
            wait = (settledAt + interval) - now
        }
        if wait > .zero {
            pending = (check, value, version)
            inFlight = form.scheduler.schedule(after: wait, quietPeriodElapsed)
        } else {
            form.dispatch(.checkDue(field: field, check: check, value: value, version: version))
        }
    }

    /// `FormEffect.ask`: asks the backend, replacing whatever was pending.
    func ask(_ check: Int, value: String, others: [String], version: Int, in form: FormPipeline) {
        cancel()
        pending = (check, value, version)
        isAsking = true
        let shared = form.localized.remoteChecks[field][check].shared
        // A check that tells whether someone is registered is asked only within its budgets.
        if form.services.checkBudgets?.isBounded == true, shared.countsAgainstBudgets, let exceeded = form.services.spendCheckBudgets() {
            return receive(.failure(BackendError.checkBudgetExceeded(exceeded)))
        }
        // Only a unique check compares values; the username check's path stays as it was.
        let comparable: String? = if shared.claimsTheValue { form.localized.definition.fields[field].comparable(value) } else { nil }
        var question = CheckQuestion(
            shared: shared, value: value, otherValues: others, formKind: form.localized.definition.kind,
            field: form.localized.fieldNames[field], comparable: comparable)
        if shared.countsAgainstBudgets { question.isFromAQuietClient = form.services.isQuietClient }
        let request = form.services.checks.ask(question, answer: answerArrived)
        // An answer given synchronously has already cleared `isAsking`.
        if isAsking { inFlight = request }
    }

    /// `FormEffect.cancelCheck`, and closing: drops the pending or running check.
    func cancel() {
        pending = nil
        isAsking = false
        if let inFlight {
            self.inFlight = nil
            inFlight.dispose()
        }
    }

    private func comeDue() {
        inFlight = nil
        guard let pending, let form = formLink.form else { return }
        self.pending = nil
        form.dispatch(.checkDue(field: field, check: pending.check, value: pending.value, version: pending.version))
    }

    private func receive(_ answer: Result<CheckVerdict, any Error>) {
        guard let pending, let form = formLink.form else { return }
        self.pending = nil
        isAsking = false
        inFlight = nil
        form.dispatch(.checkAnswered(field: field, check: pending.check, value: pending.value, version: pending.version, answer: answer))
    }
}

/// How a field check's timers and requests reach it without holding it; see `FormLink`.
private final class FieldCheckLink {
    unowned var check: FieldCheck?
}
