import Testing
@testable import SignupCore

/// The reducer under test in the way of TCA's exhaustive `TestStore`: each `send` states the
/// action's events, its effects, its answer and every change it makes to the state, and fails on
/// anything else, so no change goes unasserted.
struct TestStore {
    /// Every stored member of `FormState`, as a value a test can compare and change; a field's
    /// result is the `FieldResult` the form shows for it.
    struct State: Equatable {
        struct Field: Equatable {
            var value: String
            var judged: String
            var version: Int
            var result: FieldResult
            var awaitingRemote: Bool
        }

        struct Remembered: Equatable {
            var value: String
            var others: [String]
            var verdict: CheckVerdict
        }

        var fields: [Field]
        var version: Int
        var notOK: Int
        var validating: Int
        var isSubmitting: Bool
        var submission: SubmissionState
        var isSubmissionRunning: Bool
        var submittedVersion: Int
        var remembered: [Remembered?]
        var reported: [FieldResult?]
        var presence: [FieldPresence]

        init(_ state: FormState, in form: LocalizedForm) {
            fields = state.fields.map {
                Field(value: $0.value, judged: $0.judged, version: $0.version, result: form.results[$0.result], awaitingRemote: $0.awaitingRemote)
            }
            version = state.version
            notOK = state.notOK
            validating = state.validating
            isSubmitting = state.isSubmitting
            submission = state.submission
            isSubmissionRunning = state.isSubmissionRunning
            submittedVersion = state.submittedVersion
            remembered = state.remembered.map { $0.map { Remembered(value: $0.value, others: $0.others, verdict: $0.verdict) } }
            reported = state.reported
            presence = state.presence
        }
    }

    let form: LocalizedForm
    private var state: FormState
    /// The state as the test last asserted it.
    private(set) var asserted: State

    /// Opens the form with `values`; its opening effects must be `effects`.
    init(_ definition: FormDefinition = .signup, values: [String: String] = [:], effects: [FormEffect] = [],
         sourceLocation: SourceLocation = #_sourceLocation) {
        form = LocalizedForm(definition: definition)
        var opening = FormEffects()
        state = FormReducer.opening(definition.fields.map { values[$0.name] ?? "" }, in: form, budget: MatchBudget(), effects: &opening)
        asserted = State(state, in: form)
        #expect(Self.list(&opening) == effects, "opening effects", sourceLocation: sourceLocation)
    }

    /// Sends `action`: its events (as `FormHarness.describe` writes them) must be `events`, its
    /// effects `effects`, its answer `answer`, and the state must be the last asserted one changed
    /// by `update`, and by nothing else.
    mutating func send(
        _ action: FormAction, events: [String] = [], effects: [FormEffect] = [], answer: FormReducer.Answer = .done,
        _ update: (inout State) -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var sentEvents = ChangeEvents()
        var sentEffects = FormEffects()
        let answered = FormReducer.reduce(&state, action, in: form, events: &sentEvents, effects: &sentEffects)
        #expect((0..<sentEvents.count).map { FormHarness.describe(sentEvents[$0]) } == events, "events", sourceLocation: sourceLocation)
        #expect(Self.list(&sentEffects) == effects, "effects", sourceLocation: sourceLocation)
        #expect(answered == answer, "answer", sourceLocation: sourceLocation)
        var expected = asserted
        update(&expected)
        let actual = State(state, in: form)
        #expect(actual == expected, "state", sourceLocation: sourceLocation)
        asserted = actual
    }

    private static func list(_ effects: inout FormEffects) -> [FormEffect] {
        (0..<effects.count).map { effects.take($0) }
    }
}
