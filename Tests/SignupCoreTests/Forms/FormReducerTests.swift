import Testing
@testable import SignupCore

/// The reducer as values, step by step, in the way of TCA's exhaustive `TestStore`: each action's
/// exact events and exact effects, and the state they leave. No scheduler, no backend: the
/// effects' outcomes are fed back by hand as the actions the runtime would send.
@Suite struct FormReducerTests {
    /// Runs actions through the reducer and keeps the state between them.
    struct Store {
        let form: LocalizedForm
        var state: FormState
        let openingEffects: [FormEffect]

        init(_ definition: FormDefinition = .signup, values: [String: String] = [:]) {
            form = LocalizedForm(definition: definition)
            var effects = FormEffects()
            state = FormReducer.opening(definition.fields.map { values[$0.name] ?? "" }, in: form, budget: MatchBudget(), effects: &effects)
            openingEffects = Self.list(&effects)
        }

        /// The action's events (as the harness logs them) and effects, and its refusal if any.
        mutating func send(_ action: FormAction) -> (events: [String], effects: [FormEffect], rejection: SubmitRejection?) {
            var events = ChangeEvents()
            var effects = FormEffects()
            let answer = FormReducer.reduce(&state, action, in: form, events: &events, effects: &effects)
            let rejection: SubmitRejection? = if case .refused(let reason) = answer { reason } else { nil }
            return ((0..<events.count).map { FormHarness.describe(events[$0]) }, Self.list(&effects), rejection)
        }

        static func list(_ effects: inout FormEffects) -> [FormEffect] {
            (0..<effects.count).map { effects.take($0) }
        }
    }

    @Test func anEditJudgesAtOnceAndAsksForALatestOnlyCheck() {
        var store = Store()
        #expect(store.openingEffects == [])
        let typed = store.send(.edit(field: 0, value: "alice", budget: MatchBudget()))
        #expect(typed.events == ["username v1: validating username.checking \"Checking availability...\""])
        #expect(typed.effects == [.check(field: 0, value: "alice", version: 1)])
        // A value that fails a local rule cancels the field's check instead.
        let invalid = store.send(.edit(field: 0, value: "alice!", budget: MatchBudget()))
        #expect(invalid.events == ["username v2: failed username.invalidCharacters \"Username can only contain numbers or digits\""])
        #expect(invalid.effects == [.cancelCheck(field: 0, version: 2)])
        // The same value again changes nothing and asks for nothing.
        let same = store.send(.edit(field: 0, value: "alice!", budget: MatchBudget()))
        #expect(same.events == [] && same.effects == [])
        #expect(store.state.version == 2)
    }

    @Test func aCheckComesDueAsksAndItsAnswerIsRememberedForTheSameValue() {
        var store = Store()
        _ = store.send(.edit(field: 0, value: "alice", budget: MatchBudget()))
        #expect(store.send(.checkDue(field: 0, value: "alice", version: 1)).effects == [.ask(field: 0, value: "alice", version: 1)])
        let answered = store.send(.checkAnswered(field: 0, value: "alice", version: 1, answer: .success(.passed)))
        #expect(answered.events == ["username v1: ok username.available \"Username available\""])
        _ = store.send(.edit(field: 0, value: "alicia", budget: MatchBudget()))
        _ = store.send(.edit(field: 0, value: "alice", budget: MatchBudget()))
        // Settling on "alice" again: the remembered answer, no question to the backend.
        let again = store.send(.checkDue(field: 0, value: "alice", version: 3))
        #expect(again.effects == [])
        #expect(again.events == ["username v3: ok username.available \"Username available\""])
    }

    @Test func anAnswerForAnOlderVersionIsNeverShown() {
        var store = Store()
        _ = store.send(.edit(field: 0, value: "alice", budget: MatchBudget()))
        _ = store.send(.edit(field: 0, value: "bob", budget: MatchBudget()))
        let stale = store.send(.checkAnswered(field: 0, value: "alice", version: 1, answer: .success(.rejected(nil))))
        #expect(stale.events == [])
        let failed = store.send(.checkAnswered(field: 0, value: "bob", version: 2, answer: .failure(BackendError.unavailable(reason: "down"))))
        #expect(failed.events == ["username v2: failed backend.unavailable \"Error contacting server\""])
    }

    @Test func aTapIsAcceptedOnlyWhileEnabledAndOneSubmissionRunsAtATime() {
        var store = Store(values: ["username": "alice", "password": "secret", "repeatedPassword": "secret"])
        #expect(store.openingEffects == [.check(field: 0, value: "alice", version: 0)])
        #expect(store.send(.tap).rejection == .validating)
        let answered = store.send(.checkAnswered(field: 0, value: "alice", version: 0, answer: .success(.passed)))
        #expect(answered.events == ["username v0: ok username.available \"Username available\"", "submitEnabled true"])
        let tap = store.send(.tap)
        #expect(tap.rejection == nil)
        #expect(tap.events == ["submission submitting", "submitEnabled false"])
        #expect(tap.effects == [.submit(values: ["alice", "secret", "secret"])])
        #expect(store.send(.tap).rejection == .submitting)
        let done = store.send(.submissionChanged(.succeeded(account: .object(["username": .string("alice")]))))
        // Final until the person changes something (protocol.md, form.submit): submit stays
        // disabled and a tap is turned down.
        #expect(done.events == ["submission succeeded {username=alice}"])
        #expect(store.send(.tap).rejection == .submitted)
        _ = store.send(.edit(field: 1, value: "secret2", budget: MatchBudget()))
        #expect(store.send(.edit(field: 2, value: "secret2", budget: MatchBudget())).events.last == "submitEnabled true")
        // Enabled again, but the submission has not ended yet: a tap starts nothing (flatMapFirst).
        let early = store.send(.tap)
        #expect(early.rejection == nil && early.events == [] && early.effects == [])
        #expect(store.send(.submissionEnded).events == [])
        #expect(store.send(.tap).effects == [.submit(values: ["alice", "secret2", "secret2"])])
    }

    @Test func aRegistrationForgetsTheRememberedAnswersAndALoginDoesNot() {
        var signup = Store(values: ["username": "alice", "password": "secret", "repeatedPassword": "secret"])
        _ = signup.send(.checkAnswered(field: 0, value: "alice", version: 0, answer: .success(.passed)))
        _ = signup.send(.tap)
        _ = signup.send(.submissionChanged(.succeeded(account: .object(["username": .string("alice")]))))
        _ = signup.send(.edit(field: 0, value: "alicia", budget: MatchBudget()))
        _ = signup.send(.edit(field: 0, value: "alice", budget: MatchBudget()))
        // Registered now, so it must be asked about again.
        #expect(signup.send(.checkDue(field: 0, value: "alice", version: 2)).effects == [.ask(field: 0, value: "alice", version: 2)])
    }

    @Test func anEditOfAFieldOthersReadJudgesThemInTheSameStep() {
        var store = Store()
        _ = store.send(.edit(field: 2, value: "secret", budget: MatchBudget()))
        let password = store.send(.edit(field: 1, value: "secret", budget: MatchBudget()))
        #expect(password.events == [
            "password v2: ok password.acceptable \"Password acceptable\"",
            "repeatedPassword v2: ok repeatedPassword.matches \"Password repeated\"",
        ])
        #expect(password.effects == [])
    }
}
