/// A running form: a `FormDefinition` turned into a reactive pipeline over a scheduler and services.
///
/// Edits run the local rules at once; a field with a remote check shows `validating` at the
/// keystroke and is checked once its value has been quiet for the debounce interval, for the latest
/// value only. A tap is accepted only while submit is enabled, snapshots the values, and runs one
/// submission at a time. Use it from the scheduler's executor only.
public final class FormPipeline {
    public let definition: FormDefinition
    public let debounce: TimeSpan
    /// The locale of the form's messages.
    public let catalog: MessageCatalog

    private let values: BehaviorSubject<FormValues>
    private let taps = PublishSubject<Void>()
    private let closing = PublishSubject<Void>()
    private let checks = ActivityTracker()
    private let submissions = ActivityTracker()
    private let latest: StateHolder
    private let record: RecordIdentity
    private let subscription: any Disposable
    private var isClosed = false

    /// The form's events for one subscriber: first the current result of every field and whether
    /// submit is enabled, then every change, in the order `FormEvent` documents.
    public let events: EventStream<FormEvent>

    /// Opens a form. Unknown names in `initialValues` are ignored; the opening values are version 0.
    /// `recordID` names the record a saving form (such as `friend`) updates; without one it adds.
    public init(
        definition: FormDefinition,
        services: FormServices,
        scheduler: any Scheduler,
        debounce: TimeSpan = .milliseconds(300),
        initialValues: [String: String] = [:],
        recordID: String? = nil,
        catalog: MessageCatalog = .english
    ) {
        self.definition = definition
        self.debounce = debounce
        self.catalog = catalog
        let localizer = Localizer(catalog: catalog, definition: definition)
        values = BehaviorSubject(FormValues(values: definition.fields.map { initialValues[$0.name] ?? "" }))

        let validator = LocalValidator(definition: definition, localizer: localizer)
        let verdicts = values.stream.map(validator.evaluate).share(replay: 1)
        var memos: [RemoteCheckMemo] = []
        var changes: [EventStream<FormChange>] = [verdicts.map(FormChange.local)]
        for (index, field) in definition.fields.enumerated() {
            guard let remoteCheck = field.remoteCheck else { continue }
            let memo = RemoteCheckMemo()
            memos.append(memo)
            let fieldVerdicts = verdicts.map { $0[index] }.distinctUntilChanged(key: \.version).share(replay: 1)
            let check = RemoteCheckRunner(
                field: index, check: remoteCheck, memo: memo, services: services, activity: checks, localizer: localizer)
            changes.append(check.answers(to: fieldVerdicts, debounce: debounce, scheduler: scheduler))
        }
        let record = RecordIdentity(recordID)
        self.record = record
        let submitter = Submitter(
            definition: definition, services: services, activity: submissions, localizer: localizer,
            record: record, onSuccess: { memos.forEach { $0.forget() } })
        changes.append(submitter.states(taps: taps.stream, values: values.stream).map(FormChange.submission))

        let initial = FormState(fieldCount: definition.fields.count)
        let state = EventStream.merge(changes)
            .scan(initial) { $0.applying($1) }
            .take(until: closing.stream)
            .share(replay: 1)
        events = Self.events(of: state, fields: definition.fields)
        latest = StateHolder(initial)
        subscription = state.subscribe(onNext: { [latest] in latest.state = $0 })
    }

    /// A form dropped without `close()` is closed here: its subjects and subscriptions hold each
    /// other until closing breaks the cycle.
    deinit {
        close()
    }

    /// Sets a field's value and returns the form's edit version after it. Setting the value a field
    /// already holds changes nothing and returns the current version.
    @discardableResult
    public func edit(_ field: String, to value: String) throws(FormError) -> Int {
        guard !isClosed else { throw .closed }
        guard let index = definition.index(of: field) else {
            throw .unknownField(field, kind: definition.kind)
        }
        let current = values.value
        guard current.values[index] != value else { return current.version }
        let next = current.editing(index, to: value)
        values.onNext(next)
        return next.version
    }

    /// Submits the values as they are now, if submit is enabled; otherwise says why not.
    public func submit() throws(SubmitRejection) {
        if let rejection = latest.state.submitRejection { throw rejection }
        taps.onNext(())
    }

    /// The current result of every field, whether submit is enabled, and the submission state.
    public var snapshot: FormSnapshot {
        let state = latest.state
        return FormSnapshot(
            fields: definition.fields.indices.map {
                FieldUpdate(field: definition.fields[$0].name, result: state.results[$0], version: state.versions[$0])
            },
            submitEnabled: state.submitEnabled,
            submission: state.submission)
    }

    /// The form's edit version: how many edits have changed a value.
    public var version: Int { values.value.version }

    /// The record this form saves to: the one it was opened on, or the one its last add created.
    public var recordID: String? { record.id }

    /// Remote checks sent to a backend and not yet answered or cancelled.
    public var checksInFlight: Int { checks.count }

    /// Whether a submission is running.
    public var isSubmitting: Bool { submissions.count > 0 }

    /// Stops the form: pending checks and any running submission are cancelled, and every
    /// subscriber's events complete.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closing.onNext(())
        subscription.dispose()
    }

    private static func events(of state: EventStream<FormState>, fields: [FieldDefinition]) -> EventStream<FormEvent> {
        var streams: [EventStream<FormEvent>] = fields.enumerated().map { index, field in
            state
                .map { FieldUpdate(field: field.name, result: $0.results[index], version: $0.versions[index]) }
                .distinctUntilChanged(key: \.result)
                .map(FormEvent.fieldChanged)
        }
        streams.append(state.map(\.submission).distinctUntilChanged().skip(1).map(FormEvent.submissionChanged))
        streams.append(state.map(\.submitEnabled).distinctUntilChanged().map(FormEvent.submitEnabledChanged))
        return EventStream.merge(streams)
    }
}

/// Why an edit was refused.
public enum FormError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownField(String, kind: String)
    case closed

    public var description: String {
        switch self {
        case .unknownField(let field, let kind):
            return "form kind '\(kind)' has no field '\(field)'"
        case .closed:
            return "the form is closed; open a new one"
        }
    }
}

/// The latest state, kept by the form's own subscription so taps and snapshots can read it.
private final class StateHolder {
    var state: FormState
    init(_ state: FormState) { self.state = state }
}
