import Testing
@testable import SignupCore

/// A field judged again for another field's edit (a password beside a changed username) reuses
/// what its checks said of the values that did not change, and runs only the checks that read
/// the edited field; an edit of the field itself forgets them all. A kept similarity pays the
/// budget it would spend, so that reusing it judges exactly as running it would.
@Suite struct KeptOutcomesTests {
    /// A name, an e-mail address, and a code whose rules are its length (its own value), being
    /// unlike the name and unlike the address (the other fields') and being an animal (its own),
    /// as a checklist.
    static let form: LocalizedForm = {
        let code = FieldDefinition(name: "code", rules: [
            Rule(.minCodePoints(6), failure: Message("code.short", "Short"), requirement: Message("code.short.requirement", "6 or more")),
            Rule(.notSimilarTo("name"), failure: Message("code.likeName", "Like the name"), requirement: Message("code.likeName.requirement", "Unlike the name")),
            Rule(.notSimilarTo("email"), failure: Message("code.likeEmail", "Like the address"),
                 requirement: Message("code.likeEmail.requirement", "Unlike the address")),
            Rule(.oneOf(["zebra", "zebras", "quokka"]), failure: Message("code.notAnimal", "Not an animal"),
                 requirement: Message("code.notAnimal.requirement", "An animal")),
        ])
        // A constant definition; failing to build it is a programming error.
        return LocalizedForm(definition: try! FormDefinition(
            kind: "kept", fields: [FieldDefinition(name: "name"), FieldDefinition(name: "email"), code],
            submit: SubmitAction(kind: .saveFriend(firstNameField: "name", lastNameField: "email", phoneField: "code"))))
    }()

    @Test func aVerdictKeepsWhatEveryCheckSaid() {
        let values = ["ann", "bea@example.com", "quokka"]
        let verdict = Self.form.validator.verdict(forField: 2, version: 1, budget: MatchBudget(), valueAt: { values[$0] })
        #expect(Self.form.results[verdict.result].code == "code.ok")
        #expect(verdict.kept == Self.kept(.passes, .passes, .passes, .passes))
    }

    @Test func keptOutcomesAreTrustedAndOnlyTheCheckWithoutOneRuns() {
        // Outcomes that lie (the value is long enough, unlike the address and an animal) show
        // that a kept outcome is used, not run again; the check of the name, not kept, reads it.
        var lying = Self.kept(.fails, .passes, .fails, .fails)
        lying.forget(0b0010)
        let likeName = ["quokka", "bea@example.com", "quokka"]
        let verdict = Self.form.validator.verdict(forField: 2, version: 2, budget: MatchBudget(), kept: lying, valueAt: { likeName[$0] })
        #expect(Self.form.results[verdict.result].params["unmet"]
            == .array([.string("code.short"), .string("code.likeName"), .string("code.likeEmail"), .string("code.notAnimal")]))
        #expect(verdict.kept == Self.kept(.fails, .fails, .fails, .fails))
    }

    /// Each similarity of these values costs a step: kept or run, the budget ends the same, and a
    /// budget too small for the second judges the value too costly either way.
    @Test func aKeptSimilarityPaysTheStepsItsRunWould() {
        let values = ["ann", "bea@example.com", "quokka"]
        let kept = Self.kept(.passes, .passes, .passes, .passes)
        for keeping in [KeptOutcomes.none, kept] {
            let budget = MatchBudget(stepsPerMessage: 5)
            let verdict = Self.form.validator.verdict(forField: 2, version: 1, budget: budget, kept: keeping, valueAt: { values[$0] })
            #expect(Self.form.results[verdict.result].code == "code.ok")
            #expect(budget.remaining == 3)
            let short = MatchBudget(stepsPerMessage: 1)
            let tooCostly = Self.form.validator.verdict(forField: 2, version: 1, budget: short, kept: keeping, valueAt: { values[$0] })
            #expect(Self.form.results[tooCostly.result].code == "value.tooCostly")
            #expect(short.remaining == 0)
        }
    }

    @Test func anUndecidedOutcomeIsNotKept() {
        var kept = KeptOutcomes.none
        kept.keep(.tooCostly, ofCheckAt: 0)
        kept.keep(.passes, ofCheckAt: 8)
        #expect(kept == .none)
    }

    /// Through the reducer, exactly: an edit of the name forgets only the check that reads it,
    /// one of the address only the check that reads that, and an edit of the code every check.
    @Test func anEditForgetsWhatTheChecksReadingItSaid() {
        var store = FormReducerTests.Store(Self.form.definition)
        #expect(store.send(.edit(field: 2, value: "zebra", budget: MatchBudget())).events == [
            #"code v1: failed code.short min=6,unmet=code.short "Short""#,
        ])
        #expect(store.state.fields[2].kept == Self.kept(.fails, .passes, .passes, .passes))
        #expect(store.send(.edit(field: 0, value: "zebra", budget: MatchBudget())).events == [
            #"name v2: ok name.ok """#,
            #"code v2: failed code.short min=6,unmet=code.short, code.likeName "Short""#,
        ])
        #expect(store.state.fields[2].kept == Self.kept(.fails, .fails, .passes, .passes))
        #expect(store.send(.edit(field: 1, value: "zebra@example.com", budget: MatchBudget())).events == [
            #"email v3: ok email.ok """#,
            #"code v3: failed code.short min=6,unmet=code.short, code.likeName, code.likeEmail "Short""#,
        ])
        #expect(store.state.fields[2].kept == Self.kept(.fails, .fails, .fails, .passes))
        // The name's result is unchanged (ok): no event for it.
        #expect(store.send(.edit(field: 0, value: "ann", budget: MatchBudget())).events == [
            #"code v4: failed code.short min=6,unmet=code.short, code.likeEmail "Short""#,
        ])
        #expect(store.state.fields[2].kept == Self.kept(.fails, .passes, .fails, .passes))
        #expect(store.send(.edit(field: 2, value: "quokkas", budget: MatchBudget())).events == [
            #"code v5: failed code.notAnimal unmet=code.notAnimal "Not an animal""#,
        ])
        #expect(store.state.fields[2].kept == Self.kept(.passes, .passes, .passes, .fails))
    }

    /// A field hidden while a field it reads changes keeps nothing of what its checks said (its
    /// hidden verdict keeps nothing): shown again, it is judged against the value as it is now.
    @Test func aHiddenFieldForgetsWhatItsChecksSaidOfAFieldEditedMeanwhile() throws {
        let code = FieldDefinition(name: "code", rules: [
            Rule(.notSimilarTo("name"), failure: Message("code.likeName", "Like the name")),
        ])
        var definition = try FormDefinition(
            kind: "hidden", fields: [FieldDefinition(name: "kind"), FieldDefinition(name: "name"), code],
            submit: SubmitAction(kind: .saveFriend(firstNameField: "kind", lastNameField: "name", phoneField: "code")))
        definition.conditions = FormConditions(conditionalFields: [2], isRead: [true, false, false]) { values in
            [FieldPresence(shown: true, required: true), FieldPresence(shown: true, required: true),
             FieldPresence(shown: values[0] == "show", required: true)]
        }
        var store = FormReducerTests.Store(definition)
        _ = store.send(.edit(field: 0, value: "show", budget: MatchBudget()))
        #expect(store.send(.edit(field: 2, value: "zebras", budget: MatchBudget())).events == [
            #"code v2: ok code.ok """#,
        ])
        _ = store.send(.edit(field: 0, value: "hide", budget: MatchBudget()))
        #expect(store.send(.edit(field: 1, value: "zebras", budget: MatchBudget())).events == [
            #"name v4: ok name.ok """#,
            "submitEnabled true",
        ])
        #expect(store.send(.edit(field: 0, value: "show", budget: MatchBudget())).events == [
            "code shown, required",
            #"code v5: failed code.likeName field=name "Like the name""#,
            "submitEnabled false",
        ])
    }

    @Test func keptOutcomesFitInTheFieldsPadding() {
        #expect(MemoryLayout<KeptOutcomes>.size == 2)
        #expect(MemoryLayout<FormState.Field>.stride == 48)
    }

    /// What the code's four checks said, in order.
    private static func kept(_ length: CheckOutcome, _ name: CheckOutcome, _ email: CheckOutcome, _ animal: CheckOutcome) -> KeptOutcomes {
        var kept = KeptOutcomes.none
        for (position, outcome) in [length, name, email, animal].enumerated() { kept.keep(outcome, ofCheckAt: position) }
        return kept
    }
}
