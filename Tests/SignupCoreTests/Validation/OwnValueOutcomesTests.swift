import Testing
@testable import SignupCore

/// A field judged again for another field's edit (a password beside a changed username) reuses
/// what its checks that read only its own value said, and runs only the checks that read the other
/// field; an edit of the field itself forgets them.
@Suite struct OwnValueOutcomesTests {
    /// A name, and a code whose rules are its length (its own value), being unlike the name (the
    /// other field's) and not a common word (its own), as a checklist.
    static let form: LocalizedForm = {
        let name = FieldDefinition(name: "name")
        let code = FieldDefinition(name: "code", rules: [
            Rule(.minCodePoints(6), failure: Message("code.short", "Short"), requirement: Message("code.short.requirement", "6 or more")),
            Rule(.notSimilarTo("name"), failure: Message("code.likeName", "Like the name"), requirement: Message("code.likeName.requirement", "Unlike the name")),
            Rule(.oneOf(["zebra", "zebras", "quokka"]), failure: Message("code.notAnimal", "Not an animal"),
                 requirement: Message("code.notAnimal.requirement", "An animal")),
        ])
        // A constant definition; failing to build it is a programming error.
        return LocalizedForm(definition: try! FormDefinition(kind: "kept", fields: [name, code], submit: SubmitAction(kind: .saveFriend(firstNameField: "name", lastNameField: "name", phoneField: "code"))))
    }()

    @Test func aVerdictKeepsItsOwnValueChecksAndNotTheOneThatReadsTheOtherField() {
        let values = ["ann", "quokka"]
        let verdict = Self.form.validator.verdict(forField: 1, version: 1, budget: MatchBudget(), valueAt: { values[$0] })
        #expect(Self.form.results[verdict.result].code == "code.ok")
        #expect(verdict.kept.outcome(ofCheckAt: 0) == .passes)
        #expect(verdict.kept.outcome(ofCheckAt: 1) == nil)
        #expect(verdict.kept.outcome(ofCheckAt: 2) == .passes)
    }

    @Test func keptOutcomesAreTrustedAndTheOtherFieldsCheckRunsAgain() {
        // Outcomes that lie (the value is long enough and an animal) show that a kept outcome is
        // used, not run again; the similarity check still reads the name as it is now.
        var lying = OwnValueOutcomes.none
        lying.keep(.fails, ofCheckAt: 0)
        lying.keep(.fails, ofCheckAt: 2)
        let likeName = ["quokka", "quokka"]
        let verdict = Self.form.validator.verdict(forField: 1, version: 2, budget: MatchBudget(), kept: lying, valueAt: { likeName[$0] })
        #expect(Self.form.results[verdict.result].params["unmet"] == .array([.string("code.short"), .string("code.likeName"), .string("code.notAnimal")]))
        #expect(verdict.kept == lying)
    }

    @Test func anUndecidedOutcomeIsNotKept() {
        var kept = OwnValueOutcomes.none
        kept.keep(.tooCostly, ofCheckAt: 0)
        kept.keep(.passes, ofCheckAt: 8)
        #expect(kept == .none)
    }

    /// Through the reducer, exactly: the code is re-judged when the name changes, and an edit of
    /// the code itself judges every rule afresh.
    @Test func anEditOfTheFieldForgetsWhatItsChecksSaid() {
        var store = FormReducerTests.Store(Self.form.definition)
        #expect(store.send(.edit(field: 1, value: "zebra", budget: MatchBudget())).events == [
            #"code v1: failed code.short min=6,unmet=code.short "Short""#,
        ])
        #expect(store.state.fields[1].kept == Self.kept(.fails, .passes))
        #expect(store.send(.edit(field: 0, value: "zebra", budget: MatchBudget())).events == [
            #"name v2: ok name.ok """#,
            #"code v2: failed code.short min=6,unmet=code.short, code.likeName "Short""#,
        ])
        #expect(store.send(.edit(field: 1, value: "quokka", budget: MatchBudget())).events == [
            #"code v3: ok code.ok """#,
            "submitEnabled true",
        ])
        #expect(store.state.fields[1].kept == Self.kept(.passes, .passes))
        #expect(store.send(.edit(field: 1, value: "quokkas", budget: MatchBudget())).events == [
            #"code v4: failed code.notAnimal unmet=code.notAnimal "Not an animal""#,
            "submitEnabled false",
        ])
        #expect(store.send(.edit(field: 0, value: "ann", budget: MatchBudget())).events == [])
        #expect(store.state.fields[1].kept == Self.kept(.passes, .fails))
    }

    @Test func keptOutcomesFitInTheFieldsPadding() {
        #expect(MemoryLayout<OwnValueOutcomes>.size == 2)
        #expect(MemoryLayout<FormState.Field>.stride == 48)
    }

    /// What the code's two own-value checks (at 0 and 2) said.
    private static func kept(_ length: CheckOutcome, _ animal: CheckOutcome) -> OwnValueOutcomes {
        var kept = OwnValueOutcomes.none
        kept.keep(length, ofCheckAt: 0)
        kept.keep(animal, ofCheckAt: 2)
        return kept
    }
}
