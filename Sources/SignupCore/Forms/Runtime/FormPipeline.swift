/// A running form: the runtime of a `FormDefinition` over a scheduler and services.
///
/// Every edit, tap and effect outcome is a `FormAction`; `FormReducer` decides what it does to
/// the `FormState`, which events go out and which `FormEffect`s run. This class only keeps the
/// state, sends the events to the receivers, and runs the effects under their policies (each
/// field's checks latest-only and debounced in `FieldCheck`, one submission at a time). Use it
/// from the scheduler's executor only (checked in debug builds: `Scheduler.preconditionOnExecutor`).
///
/// The state is changed in place and each change sends only what it changed, so an edit costs the
/// same however many forms are open and however many fields the form has that the edit leaves alone.
public final class FormPipeline {
    // What a keystroke touches comes first, so that it shares the object's first cache lines: with
    // thousands of forms open, each line an edit reads is likely a miss.

    /// The definition in its locale, shared with every form of the same kind and locale.
    public let localized: LocalizedForm
    public let debounce: TimeSpan
    private var receivers = FormReceivers()
    /// The check effects of each field with a remote check; nil for the others.
    private var checks: [FieldCheck?] = []
    private var isClosed = false
    /// What an edit given no budget spends, made on the first such edit (a server always gives one).
    private lazy var ownBudget = MatchBudget()
    private var state: FormState

    let scheduler: any Scheduler
    let services: FormServices
    private let record: RecordIdentity
    /// The running submission (`FormEffect.submit`), until it ends.
    private var submission: (any Disposable)?
    let link = FormLink()

    public var definition: FormDefinition { localized.definition }
    /// The locale of the form's messages.
    public var catalog: MessageCatalog { localized.catalog }

    /// Opens a form. Unknown names in `initialValues` are ignored; the opening values are version 0.
    /// `recordID` names the record a saving form (such as `friend`) updates; without one it adds.
    public convenience init(
        definition: FormDefinition,
        services: FormServices,
        scheduler: any Scheduler,
        debounce: TimeSpan = .milliseconds(300),
        initialValues: [String: String] = [:],
        recordID: String? = nil,
        catalog: MessageCatalog = .english
    ) {
        self.init(
            form: LocalizedForm(definition: definition, catalog: catalog), services: services, scheduler: scheduler,
            debounce: debounce, initialValues: initialValues, recordID: recordID, budget: nil)
    }

    /// Opens a form of a definition already localized, as a server opening many forms does.
    /// Judging the opening values spends `budget`, or a budget of their own when it is nil.
    public init(
        form: LocalizedForm,
        services: FormServices,
        scheduler: any Scheduler,
        debounce: TimeSpan = .milliseconds(300),
        initialValues: [String: String] = [:],
        recordID: String? = nil,
        budget: MatchBudget? = nil
    ) {
        localized = form
        self.debounce = debounce
        self.scheduler = scheduler
        self.services = services
        record = RecordIdentity(recordID)
        let fields = form.definition.fields
        var effects = FormEffects()
        state = FormReducer.opening(
            fields.map { initialValues[$0.name] ?? $0.initialValue ?? "" }, in: form, budget: budget ?? MatchBudget(), effects: &effects)
        link.form = self
        if fields.contains(where: { !$0.remoteChecks.isEmpty }) {
            checks = fields.indices.map { index in
                fields[index].remoteChecks.isEmpty ? nil : FieldCheck(field: index, form: self)
            }
        }
        perform(&effects)
    }

    /// A form dropped without `close()` is closed here, cancelling its timers and requests.
    deinit {
        // First, so that nothing called from `close()` reaches a form being destroyed.
        link.form = nil
        // Wherever the last reference went: the timers and requests it cancels are its own.
        stop()
    }

    /// The form's events for one subscriber: first the current result of every field and whether
    /// submit is enabled, then every change, in the order `FormEvent` documents. Completes when
    /// the form closes.
    public var events: EventStream<FormEvent> {
        // The stream holds the form; a subscription holds only its link (`FormLink`), so a
        // form dropped while subscribed still closes (and completes its subscribers) in `deinit`.
        EventStream { [self] observer in attach(ObserverReceiver(observer)) }
    }

    /// Sends the form's events to `receiver` until the returned disposable is disposed: first the
    /// current result of every field and whether submit is enabled, then every change, as `events`
    /// does, but with one call per event and no stream between. The form holds the receiver
    /// meanwhile. A closed form calls `formDidClose()` at once.
    public func attach(_ receiver: some FormEventReceiver) -> any Disposable {
        #if DEBUG
        scheduler.preconditionOnExecutor()
        #endif
        guard !isClosed else {
            receiver.formDidClose()
            return Disposables.empty
        }
        // A conditional field's presence comes first; a hidden field's result is not sent.
        if let conditions = localized.definition.conditions {
            for index in conditions.conditionalFields {
                receiver.receive(.presenceChanged(PresenceUpdate(field: localized.fieldNames[index], presence: state.presence[index])))
            }
        }
        for index in state.fields.indices where state.isShown(index) { receiver.receive(.fieldChanged(update(ofField: index))) }
        receiver.receive(.submitEnabledChanged(state.submitEnabled))
        // The receiver may have closed the form while it heard the current state.
        guard !isClosed else {
            receiver.formDidClose()
            return Disposables.empty
        }
        return attachment(changingReceivers { $0.add(receiver) })
    }

    /// The position of the named field, or nil when the form has no such field.
    public func index(ofField name: String) -> Int? {
        localized.index(ofField: name)
    }

    /// Sets a field's value and returns the form's edit version after it. Setting the value a field
    /// already holds changes nothing and returns the current version, unless the field was judged
    /// too costly to check: then it is judged again. Patterns spend `budget`, or a whole
    /// `MatchBudget` of this edit's own when it is nil.
    @discardableResult
    public func edit(_ field: String, to value: String, spending budget: MatchBudget? = nil) throws(FormError) -> Int {
        guard !isClosed else { throw .closed }
        guard let index = index(ofField: field) else { throw .unknownField(field, kind: definition.kind) }
        return try edit(fieldAt: index, to: value, spending: budget)
    }

    /// Sets the value of the field at `index` (a position from `index(ofField:)`), as `edit(_:to:)`.
    @discardableResult
    public func edit(fieldAt index: Int, to value: String, spending budget: MatchBudget? = nil) throws(FormError) -> Int {
        guard !isClosed else { throw .closed }
        // The action takes the budget as it is made, with no local copy kept alive beside it.
        guard case .edited(let version) = dispatch(.edit(field: index, value: value, budget: budget ?? renewedOwnBudget())) else {
            return state.version
        }
        return version
    }

    /// The budget of an edit given none: one per form, renewed for each edit.
    private func renewedOwnBudget() -> MatchBudget {
        ownBudget.renew()
        return ownBudget
    }

    /// Submits the values as they are now, if submit is enabled; otherwise says why not.
    public func submit() throws(SubmitRejection) {
        guard !isClosed else {
            // A closed form starts nothing, but still says why a tap would have been refused.
            if let rejection = state.submitRejection { throw rejection }
            return
        }
        if case .refused(let rejection) = dispatch(.tap) { throw rejection }
    }

    /// The current result of every field, whether submit is enabled, and the submission state.
    public var snapshot: FormSnapshot {
        FormSnapshot(
            fields: state.fields.indices.map(update(ofField:)),
            submitEnabled: state.submitEnabled,
            submission: state.submission)
    }

    /// The form's edit version: how many edits have changed a value.
    public var version: Int { state.version }

    /// The values, as judged, of the fields `LocalizedForm.fieldsComparedByLikeness(with:)` names; nil for none.
    public func valuesComparedByLikeness(withField index: Int) -> [String: String]? {
        let others = localized.fieldsComparedByLikeness(with: index)
        return others.isEmpty ? nil : Dictionary(others.map { (localized.fieldNames[$0], state.fields[$0].judged) }) { first, _ in first }
    }

    /// The record this form saves to: the one it was opened on, or the one its last add created.
    public var recordID: String? { record.id }

    /// Remote checks sent to a backend and not yet answered or cancelled.
    public var checksInFlight: Int { checks.count { $0?.isAsking == true } }

    /// Whether a field is waiting for a remote check (debouncing or asking).
    public var isValidating: Bool { state.isValidating }

    /// Whether a submission is running.
    public var isSubmitting: Bool { state.isSubmissionRunning }

    /// Stops the form: pending checks and any running submission are cancelled, and every
    /// subscriber's events complete.
    public func close() {
        #if DEBUG
        scheduler.preconditionOnExecutor()
        #endif
        stop()
    }

    private func stop() {
        guard !isClosed else { return }
        isClosed = true
        checks.forEach { $0?.cancel() }
        let running = submission
        submission = nil
        state.isSubmissionRunning = false
        running?.dispose()
        for entry in changingReceivers({ $0.removeAll() }) { entry.receiver.formDidClose() }
    }

    /// Runs one action through the reducer, sends its events, then runs its effects; unless a
    /// receiver closed the form meanwhile, which cancelled them all.
    @discardableResult
    func dispatch(_ action: consuming FormAction) -> FormReducer.Answer {
        #if DEBUG
        scheduler.preconditionOnExecutor()
        #endif
        guard !isClosed else { return .done }
        var events = ChangeEvents()
        var effects = FormEffects()
        let answer = FormReducer.reduce(&state, action, in: localized, events: &events, effects: &effects)
        send(&events)
        guard !isClosed, effects.count > 0 else { return answer }
        perform(&effects)
        return answer
    }

    /// Runs effects in order. A field's `check` or `cancelCheck` made stale by a newer verdict of
    /// that field (a receiver edited it from inside this action's events) is skipped: the newer
    /// one has run already.
    private func perform(_ effects: inout FormEffects) {
        for index in 0..<effects.count {
            guard !isClosed else { return }
            switch effects.take(index) {
            case .check(let field, let check, let value, let version):
                guard state.fields[field].version == version else { continue }
                checks[field]?.check(check, value: value, version: version, in: self)
            case .cancelCheck(let field, let version):
                guard state.fields[field].version == version else { continue }
                checks[field]?.cancel()
            case .ask(let field, let check, let value, let others, let version):
                checks[field]?.ask(check, value: value, others: others, version: version, in: self)
            case .submit(let values, let leftOut):
                run(Submitter(
                    definition: definition, services: services, localizer: localized.localizer, record: record
                ).run(with: values, leavingOut: Set(leftOut.map { definition.fields[$0].name })))
            }
        }
    }

    /// Subscribes to a submission and feeds its states back as actions.
    private func run(_ outcome: EventStream<SubmissionStep>) {
        // Through the link: the form may be dropped while the submission runs; `deinit` closes
        // it, which disposes the subscription.
        let subscription = outcome.subscribe(Observer { [link] event in
            guard let form = link.form else { return }
            switch event {
            case .next(.state(let submission)): form.dispatch(.submissionChanged(submission))
            case .next(.refused(let issues, let failure)): form.dispatch(.submissionRefused(fieldIssues: issues, failure: failure))
            case .error, .completed:
                form.submission = nil
                form.dispatch(.submissionEnded)
            }
        })
        if state.isSubmissionRunning && !isClosed { submission = subscription } else { subscription.dispose() }
    }

    /// Sends one change's events to every receiver, each receiver getting them all in order, to
    /// the receivers as they were when sending began: a receiver may detach (itself or another)
    /// or attach one while it is called; one detached meanwhile hears nothing more, and one
    /// attached meanwhile hears the next change.
    /// The last receiver is handed the events themselves, the others copies.
    private func send(_ change: inout ChangeEvents) {
        guard !change.isEmpty else { return }
        let others = receivers.others
        if let first = receivers.first {
            for event in 0..<change.count {
                guard receivers.first?.id == first.id else { break }
                first.receiver.receive(others.isEmpty ? change.take(event) : change[event])
            }
        }
        for (position, entry) in others.enumerated() {
            let isLast = position == others.count - 1
            for event in 0..<change.count {
                guard receivers.isAttached(entry.id) else { break }
                entry.receiver.receive(isLast ? change.take(event) : change[event])
            }
        }
    }

    /// What detaches the receiver `id`: through the link, so it does not hold the form.
    private func attachment(_ id: Int) -> any Disposable {
        let link = self.link
        return Disposables.create { _ = link.form?.changingReceivers { $0.remove(id) } }
    }

    /// Changes the receivers moved out of the form: no access to `receivers` then spans a call,
    /// so the compiler checks them all statically rather than at run time. What a change removes
    /// it returns, to be released after they are put back.
    private func changingReceivers<Result>(_ change: (inout FormReceivers) -> Result) -> Result {
        var moved = FormReceivers()
        swap(&moved, &receivers)
        let result = change(&moved)
        swap(&moved, &receivers)
        return result
    }

    private func update(ofField index: Int) -> FieldUpdate {
        state.update(ofField: index, in: localized)
    }
}
