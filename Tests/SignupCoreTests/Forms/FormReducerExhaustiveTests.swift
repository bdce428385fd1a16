import Testing
@testable import SignupCore

/// The reducer through `TestStore`: every state change, event and effect of each action asserted,
/// none skipped.
@Suite struct FormReducerExhaustiveTests {
    private static let checking = FieldResult(state: .validating, code: "username.checking", message: "Checking availability...")
    private static let available = FieldResult(state: .ok, code: "username.available", message: "Username available")
    private static let badCharacters = FieldResult(
        state: .failed, code: "username.invalidCharacters", message: "Username can only contain numbers or digits")

    @Test func aNameIsCheckedLatestOnlyAndItsAnswerRemembered() {
        var store = TestStore()
        #expect(store.asserted.notOK == 3 && store.asserted.version == 0)

        store.send(.edit(field: 0, value: "alice", budget: MatchBudget()),
                   events: ["username v1: validating username.checking \"Checking availability...\""],
                   effects: [.check(field: 0, value: "alice", version: 1)], answer: .edited(version: 1)) {
            $0.fields[0] = .init(value: "alice", judged: "alice", version: 1, result: Self.checking, awaitingRemote: true)
            $0.version = 1
            $0.validating = 1
        }
        store.send(.checkDue(field: 0, value: "alice", version: 1),
                   effects: [.ask(field: 0, value: "alice", version: 1)])
        store.send(.checkAnswered(field: 0, value: "alice", version: 1, answer: .success(.passed)),
                   events: ["username v1: ok username.available \"Username available\""]) {
            $0.fields[0].result = Self.available
            $0.fields[0].awaitingRemote = false
            $0.notOK = 2
            $0.validating = 0
            $0.remembered = [.init(value: "alice", others: [], verdict: .passed)]
        }
        store.send(.edit(field: 0, value: "alice!", budget: MatchBudget()),
                   events: ["username v2: failed username.invalidCharacters \"Username can only contain numbers or digits\""],
                   effects: [.cancelCheck(field: 0, version: 2)], answer: .edited(version: 2)) {
            $0.fields[0] = .init(value: "alice!", judged: "alice!", version: 2, result: Self.badCharacters, awaitingRemote: false)
            $0.version = 2
            $0.notOK = 3
        }
        // Back to a name already answered: checked again after the quiet period, answered from memory.
        store.send(.edit(field: 0, value: "alice", budget: MatchBudget()),
                   events: ["username v3: validating username.checking \"Checking availability...\""],
                   effects: [.check(field: 0, value: "alice", version: 3)], answer: .edited(version: 3)) {
            $0.fields[0] = .init(value: "alice", judged: "alice", version: 3, result: Self.checking, awaitingRemote: true)
            $0.version = 3
            $0.validating = 1
        }
        store.send(.checkDue(field: 0, value: "alice", version: 3),
                   events: ["username v3: ok username.available \"Username available\""]) {
            $0.fields[0].result = Self.available
            $0.fields[0].awaitingRemote = false
            $0.notOK = 2
            $0.validating = 0
        }
    }

    @Test func anAnswerForAnOlderVersionChangesNothingButIsRemembered() {
        var store = TestStore()
        store.send(.edit(field: 0, value: "alice", budget: MatchBudget()),
                   events: ["username v1: validating username.checking \"Checking availability...\""],
                   effects: [.check(field: 0, value: "alice", version: 1)], answer: .edited(version: 1)) {
            $0.fields[0] = .init(value: "alice", judged: "alice", version: 1, result: Self.checking, awaitingRemote: true)
            $0.version = 1
            $0.validating = 1
        }
        store.send(.edit(field: 0, value: "bob", budget: MatchBudget()),
                   effects: [.check(field: 0, value: "bob", version: 2)], answer: .edited(version: 2)) {
            $0.fields[0] = .init(value: "bob", judged: "bob", version: 2, result: Self.checking, awaitingRemote: true)
            $0.version = 2
        }
        // A check that reads no other field is about its value alone: its answer is kept for
        // "alice" even though the field has moved on, and shown nowhere.
        store.send(.checkAnswered(field: 0, value: "alice", version: 1, answer: .success(.rejected(nil)))) {
            $0.remembered = [.init(value: "alice", others: [], verdict: .rejected(nil))]
        }
    }

    @Test func aTapIsRefusedUntilEnabledAndStartsOneSubmission() {
        var store = TestStore(values: ["username": "alice", "password": "secret", "repeatedPassword": "secret"],
                              effects: [.check(field: 0, value: "alice", version: 0)])
        store.send(.tap, answer: .refused(.validating))
        store.send(.checkAnswered(field: 0, value: "alice", version: 0, answer: .success(.passed)),
                   events: ["username v0: ok username.available \"Username available\"", "submitEnabled true"]) {
            $0.fields[0].result = Self.available
            $0.fields[0].awaitingRemote = false
            $0.notOK = 0
            $0.validating = 0
            $0.remembered = [.init(value: "alice", others: [], verdict: .passed)]
        }
        store.send(.tap, events: ["submission submitting", "submitEnabled false"],
                   effects: [.submit(values: ["alice", "secret", "secret"])]) {
            $0.isSubmissionRunning = true
            $0.isSubmitting = true
            $0.submission = .submitting
        }
        // A second tap while one runs starts nothing.
        store.send(.tap, answer: .refused(.submitting))
    }
}
