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
    /// The form asking, which owns this runner and cancels it when it closes (also on deinit), so
    /// no timer or request of the runner outlives it. The runner reads its backend, clock and
    /// rendered answers from there, so an open form stays small. Not `weak`: a weak reference
    /// would move the form's reference counts to a side table and make every retain slower. Not
    /// checked `unowned` either, whose every read is two atomic counts: the runner reads the form
    /// only when called by it, or while a check is pending, and closing the form drops every check.
    private unowned(unsafe) let form: FormPipeline
    private var remembered: (value: String, result: ResultID)?
    /// A verdict judged and not yet acted on: the value to check (nil when none is needed) and its version.
    private var held: (value: String?, version: Int)?
    /// The debounce timer, or the request once `isAsking`: a runner is never waiting on both, and
    /// one slot keeps the runner (one per checked field of every open form) a line smaller.
    private var inFlight: (any Disposable)?
    /// The value (and its version) the debounce timer or the request is about.
    private var pending: (value: String, version: Int)?

    // Made once per runner and handed to every timer and request, rather than a closure (an
    // object) per keystroke. They reach the runner unretained: an `unowned` capture took and
    // dropped a strong count on every call. Safe because only the runner's own timer and
    // request hold them, and the runner cancels both before it goes (when its form closes, and
    // in `deinit`).
    private lazy var quietPeriodElapsed: () -> Void = { [runner = Unmanaged.passUnretained(self)] in
        runner._withUnsafeGuaranteedRef { $0.checkPendingValue() }
    }
    private lazy var answerArrived: (Result<Availability, any Error>) -> Void = { [runner = Unmanaged.passUnretained(self)] answer in
        runner._withUnsafeGuaranteedRef { $0.receive(answer) }
    }

    init(field: Int, kind: RemoteCheck.Kind, form: FormPipeline) {
        self.field = field
        self.kind = kind
        self.form = form
    }

    deinit {
        cancel()
    }

    /// The field has a new verdict: drops whatever was pending and, when the verdict asks for it,
    /// checks its value once it has been quiet for the debounce interval.
    func restart(with verdict: LocalVerdict) {
        restart(checking: verdict.needsRemoteCheck ? verdict.value : nil, version: verdict.version)
    }

    /// Keeps the field's new verdict until `restartWithHeldVerdict()`: an edit judges its fields,
    /// sends their results, and only then restarts their checks. A newer verdict replaces an older
    /// one still held, so a change made from within the sending acts on its own verdict only.
    func hold(_ verdict: LocalVerdict) {
        held = (verdict.needsRemoteCheck ? verdict.value : nil, verdict.version)
    }

    /// Restarts with the verdict `hold(_:)` kept, if one is still held.
    func restartWithHeldVerdict() {
        guard let held else { return }
        self.held = nil
        restart(checking: held.value, version: held.version)
    }

    /// Drops whatever was pending and checks `value` (if any) once it has been quiet.
    private func restart(checking value: String?, version: Int) {
        cancel()
        guard let value else { return }
        if form.debounce > .zero {
            pending = (value, version)
            inFlight = withForm { $0.scheduler.schedule(after: $0.debounce, quietPeriodElapsed) }
        } else {
            check(value, version: version)
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
        guard let pending else { return }
        check(pending.value, version: pending.version)
    }

    private func check(_ value: String, version: Int) {
        if let remembered, remembered.value == value {
            pending = nil
            withForm { $0.receive(remembered.result, forField: field, version: version) }
            return
        }
        pending = (value, version)
        isAsking = true
        let request = ask(value)
        if isAsking { inFlight = request }
    }

    private func receive(_ answer: Result<Availability, any Error>) {
        guard let pending else { return }
        self.pending = nil
        isAsking = false
        inFlight = nil
        withForm { form in
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
    }

    /// Asks the form's backend, reading only the service it needs: a copy of the form's services
    /// would retain every one of them.
    private func ask(_ value: String) -> any Disposable {
        switch kind {
        case .usernameAvailability:
            return withForm { $0.services.availability.checkAvailability(of: value, answer: answerArrived) }
        }
    }

    /// Calls `body` with the form through a guaranteed reference: through the `unowned(unsafe)`
    /// one, whatever of the form a call used (its scheduler, backend, results) was retained around it.
    private func withForm<Result>(_ body: (FormPipeline) -> Result) -> Result {
        Unmanaged.passUnretained(form)._withUnsafeGuaranteedRef(body)
    }
}
