@testable import SignupCore
import Testing

/// A form's conditions (issue 55 §4), on the engine alone: presence events come before the
/// field's result; a hidden field is never judged, never holds submit back, cancels its pending
/// check, and is submitted empty; shown again, it is judged afresh.
@Suite struct FieldPresenceTests {
    /// `nickname` (with an availability check) is shown while `kind` is `person`, and required
    /// while it is; `note` is always shown, required once `kind` is `team`.
    static func definition() throws -> FormDefinition {
        let check = RemoteCheck(kind: .usernameAvailability, validating: Message("nickname.checking", "Checking..."),
                                passed: Message("nickname.available", "Available"), rejected: Message("nickname.taken", "Taken"),
                                unavailable: Message("backend.unavailable", "Down"))
        var definition = try FormDefinition(
            kind: "k",
            fields: [FieldDefinition(name: "kind"), FieldDefinition(name: "nickname", isRequired: false, remoteCheck: check),
                     FieldDefinition(name: "note", isRequired: false), FieldDefinition(name: "password", isSecret: true)],
            submit: SubmitAction(kind: .registerAccount(usernameField: "kind", passwordField: "password")))
        definition.conditions = FormConditions(conditionalFields: [1, 2], isRead: [true, false, false, false]) { values in
            [FieldPresence(shown: true, required: true), FieldPresence(shown: values[0] == "person", required: values[0] == "person"),
             FieldPresence(shown: true, required: values[0] == "team"), FieldPresence(shown: true, required: true)]
        }
        return definition
    }

    @Test func presenceComesFirstAndAHiddenFieldIsNeverJudgedNorHoldsSubmitBack() throws {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300, definition: try Self.definition())
        harness.edit(at: 10, "kind", "person")
        harness.edit(at: 20, "nickname", "ann")
        // Hidden before its check answers: the check is cancelled and nothing is sent for it.
        harness.edit(at: 50, "kind", "team")
        harness.edit(at: 60, "nickname", "bob")
        harness.edit(at: 70, "password", "hunter22")
        harness.edit(at: 80, "note", "hello")
        harness.edit(at: 1000, "kind", "person")
        #expect(harness.runToIdle() == [
            "@0 nickname hidden",
            "@0 note shown",
            "@0 kind v0: empty kind.empty \"\"",
            "@0 note v0: ok note.ok \"\"",
            "@0 password v0: empty password.empty \"\"",
            "@0 submitEnabled false",
            "@10 kind v1: ok kind.ok \"\"",
            "@10 nickname shown, required",
            "@10 nickname v1: empty nickname.empty \"\"",
            "@20 nickname v2: validating nickname.checking \"Checking...\"",
            "@50 nickname hidden",
            "@50 note shown, required",
            "@50 note v3: empty note.empty \"\"",
            "@70 password v5: ok password.ok \"\"",
            "@80 note v6: ok note.ok \"\"",
            "@80 submitEnabled true",
            // Shown again, with the value typed while it was hidden, judged afresh and checked.
            "@1000 nickname shown, required",
            "@1000 nickname v7: validating nickname.checking \"Checking...\"",
            "@1000 note shown",
            "@1000 submitEnabled false",
            "@1400 nickname v7: ok nickname.available \"Available\"",
            "@1400 submitEnabled true",
        ])
    }
}

extension FieldPresenceTests {
    /// The tap's effect leaves the hidden field out, and its value, typed while it was shown, is
    /// not among the values sent.
    @Test func aHiddenFieldIsLeftOutOfTheSubmission() throws {
        var store = FormReducerTests.Store(try Self.definition(), values: ["kind": "person", "nickname": "ann", "password": "hunter22"])
        #expect(store.openingEffects == [.check(field: 1, value: "ann", version: 0)])
        _ = store.send(.checkAnswered(field: 1, value: "ann", version: 0, answer: .success(.passed)))
        let toTeam = store.send(.edit(field: 0, value: "team", budget: MatchBudget()))
        #expect(toTeam.events == ["nickname hidden", "note shown, required", "note v1: empty note.empty \"\"", "submitEnabled false"])
        #expect(toTeam.effects == [.cancelCheck(field: 1, version: 1)])
        _ = store.send(.edit(field: 2, value: "hello", budget: MatchBudget()))
        let tap = store.send(.tap)
        #expect(tap.rejection == nil)
        #expect(tap.effects == [.submit(values: ["team", "", "hello", "hunter22"], leftOut: [1])])
    }
}
