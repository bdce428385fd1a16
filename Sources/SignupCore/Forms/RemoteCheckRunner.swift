/// Debounced, latest-only remote checks for one field.
///
/// Every new verdict of the field cancels the pending or running check at once; a value that
/// passes the local rules and stays quiet for the debounce interval is then asked about. The
/// answer of the last settled check is remembered, so settling on the same value again asks the
/// backend only once.
final class RemoteCheckRunner {
    let field: Int
    private let kind: RemoteCheck.Kind
    /// Whether a question is with the backend and not yet answered or cancelled.
    private(set) var isAsking = false
    /// The form asking, which owns this runner and cancels it when it closes (also on deinit).
    /// Through its link, so that a timer or answer that finds the form gone does nothing. The
    /// form passes itself to the calls it makes, so only those two read this.
    private let formLink: FormLink
    /// How the runner's timers and requests reach it: cleared as the runner goes, so one that
    /// outlives it calls nothing.
    private let link = RunnerLink()
    private var remembered: (value: String, result: ResultID)?
    /// A verdict judged and not yet acted on: the value to check (nil when none is needed) and its version.
    private var held: (value: String?, version: Int)?
    /// The debounce timer, or the request once `isAsking`: a runner is never waiting on both, and
    /// one slot keeps the runner (one per checked field of every open form) a line smaller.
    private var inFlight: (any Disposable)?
    /// The value (and its version) the debounce timer or the request is about.
    private var pending: (value: String, version: Int)?

    // Made once per runner and handed to every timer and request, rather than a closure (an
    // object) per keystroke.
    private lazy var quietPeriodElapsed: () -> Void = { [link] in link.runner?.checkPendingValue() }
    private lazy var answerArrived: (Result<Availability, any Error>) -> Void = { [link] in link.runner?.receive($0) }

    init(field: Int, kind: RemoteCheck.Kind, form: FormPipeline) {
        self.field = field
        self.kind = kind
        formLink = form.link
        link.runner = self
    }

    deinit {
        link.runner = nil
        cancel()
    }

    /// The field has a new verdict: drops whatever was pending and, when the verdict asks for it,
    /// checks its value once it has been quiet for the debounce interval.
    func restart(with verdict: LocalVerdict, in form: FormPipeline) {
        restart(checking: verdict.needsRemoteCheck ? verdict.value : nil, version: verdict.version, in: form)
    }

    /// Keeps the field's new verdict until `restartWithHeldVerdict(in:)`: an edit judges its
    /// fields, sends their results, and only then restarts their checks. A newer verdict replaces
    /// an older one still held, so a change made from within the sending acts on its own verdict only.
    func hold(_ verdict: LocalVerdict) {
        held = (verdict.needsRemoteCheck ? verdict.value : nil, verdict.version)
    }

    /// Restarts with the verdict `hold(_:)` kept, if one is still held.
    func restartWithHeldVerdict(in form: FormPipeline) {
        guard let held else { return }
        self.held = nil
        restart(checking: held.value, version: held.version, in: form)
    }

    /// Drops whatever was pending and checks `value` (if any) once it has been quiet.
    private func restart(checking value: String?, version: Int, in form: FormPipeline) {
        cancel()
        guard let value else { return }
        if form.debounce > .zero {
            pending = (value, version)
            inFlight = form.scheduler.schedule(after: form.debounce, quietPeriodElapsed)
        } else {
            check(value, version: version, in: form)
        }
    }

    /// Cancels the pending or running check, if any.
    func cancel() {
        pending = nil
        isAsking = false
        if let inFlight {
            self.inFlight = nil
            inFlight.dispose()
        }
    }

    /// Forgets the remembered answer; a successful submission can change what the backend says.
    func forget() {
        remembered = nil
    }

    /// The debounce interval has passed.
    private func checkPendingValue() {
        inFlight = nil
        guard let pending, let form = formLink.form else { return }
        check(pending.value, version: pending.version, in: form)
    }

    private func check(_ value: String, version: Int, in form: FormPipeline) {
        if let remembered, remembered.value == value {
            pending = nil
            form.receive(remembered.result, forField: field, version: version)
            return
        }
        pending = (value, version)
        isAsking = true
        let request = ask(value, in: form)
        if isAsking { inFlight = request }
    }

    private func receive(_ answer: Result<Availability, any Error>) {
        guard let pending, let form = formLink.form else { return }
        self.pending = nil
        isAsking = false
        inFlight = nil
        guard let results = form.localized.remoteResults[field] else { return }
        switch answer {
        case .success(let availability):
            let result = availability == .available ? results.passed : results.rejected
            remembered = (pending.value, result)
            form.receive(result, forField: field, version: pending.version)
        case .failure:
            form.receive(results.unavailable, forField: field, version: pending.version)
        }
    }

    /// Asks the form's backend.
    private func ask(_ value: String, in form: FormPipeline) -> any Disposable {
        switch kind {
        case .usernameAvailability:
            return form.services.availability.checkAvailability(of: value, answer: answerArrived)
        }
    }
}

/// How a runner's timers and requests reach it without holding it; see `FormLink`.
private final class RunnerLink {
    unowned var runner: RemoteCheckRunner?
}
