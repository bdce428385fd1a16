import Testing
@testable import SignupBackends
@testable import SignupCore

/// `unique` checks (issue 37): a value no account of the kind uses in the field passes; the
/// registration claims it, so of two racing for one value exactly one wins, and the loser's field
/// shows the check's `rejected` message.
@Suite struct UniqueCheckTests {
    static let form = try! FormDefinition(
        kind: "mail-signup",
        fields: [
            FieldDefinition(name: "username"),
            FieldDefinition(name: "email", remoteChecks: [RemoteCheck(
                kind: .unique, validating: Message("email.checking", "Checking..."), passed: Message("email.free", "Free"),
                rejected: Message("email.taken", "Already registered"), unavailable: Message("backend.unavailable", "Down"))],
                normalization: .nfkc),
            FieldDefinition(name: "password", isSecret: true),
        ],
        submit: SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password")))

    @Test func aClaimedValueIsRejectedInAnyCaseAndARaceHasOneWinner() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(
            script: .init(checkLatency: .fixed(.milliseconds(50)), registrationLatency: .fixed(.milliseconds(100))), scheduler: scheduler)
        let ann = FormHarness(definition: Self.form, initialValues: ["username": "ann", "email": "ann@example.com", "password": "pw"],
                              directory: directory, scheduler: scheduler)
        let bea = FormHarness(definition: Self.form, initialValues: ["username": "bea", "email": "ANN@example.com", "password": "pw"],
                              directory: directory, scheduler: scheduler)
        // Both checks pass before either registers; both submit; the first to register wins.
        ann.submit(at: 100)
        bea.submit(at: 110)
        let cy = FormHarness(definition: Self.form, initialValues: ["username": "cy", "password": "pw"], directory: directory, scheduler: scheduler)
        // Full-width letters normalise (NFKC) to the same address, in another case.
        cy.edit(at: 300, "email", "ＡＮＮ@example.com")
        scheduler.run()
        #expect(ann.log.filter { $0.contains("submission") } == ["@100 submission submitting", "@200 submission succeeded {username=ann}"])
        #expect(bea.log.filter { !$0.hasPrefix("@0 ") } == [
            "@50 email v0: ok email.free \"Free\"", "@50 submitEnabled true",
            "@110 submission submitting", "@110 submitEnabled false",
            "@210 email v0: failed email.taken \"Already registered\"",
            "@210 submission failed signup.failed \"Sign-up failed, please try again\"",
        ])
        #expect(cy.log.filter { $0.contains("email") && !$0.hasPrefix("@0 ") } == [
            "@300 email v1: validating email.checking \"Checking...\"",
            "@350 email v1: failed email.taken \"Already registered\"",
        ])
    }

    /// An e-mail field's addresses compare with their domain in ASCII: the same address written
    /// with its internationalised domain or its ASCII form is one.
    @Test func anAddressWithAnInternationalisedDomainIsOneWithItsASCIIForm() {
        var fields = Self.form.fields
        fields[1].rules = [Rule(.emailAddress, failure: Message("email.invalid", "Not an address"))]
        let form = try! FormDefinition(kind: "mail-signup", fields: fields, submit: Self.form.submit)
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: .init(registrationLatency: .fixed(.milliseconds(100))), scheduler: scheduler)
        let ann = FormHarness(definition: form, initialValues: ["username": "ann", "email": "Ann@Bücher.de", "password": "pw"],
                              directory: directory, scheduler: scheduler)
        ann.submit(at: 10)
        let bea = FormHarness(definition: form, initialValues: ["username": "bea", "password": "pw"], directory: directory, scheduler: scheduler)
        bea.edit(at: 500, "email", "ann@XN--BCHER-KVA.de")
        scheduler.run()
        #expect(ann.log.last { $0.contains("submission") } == "@110 submission succeeded {username=ann}")
        #expect(bea.log.filter { $0.contains("email") && !$0.hasPrefix("@0 ") } == [
            "@500 email v1: validating email.checking \"Checking...\"",
            "@500 email v1: failed email.taken \"Already registered\"",
        ])
    }

    @Test func aUniqueCheckNeedsARegistrationAndAFieldInTheClear() {
        var fields = Self.form.fields
        #expect(throws: FormDefinitionError.uniqueWithoutRegistration(kind: "x", field: "email")) {
            try FormDefinition(kind: "x", fields: fields, submit: SubmitAction(kind: .logIn(usernameField: "username", passwordField: "password")))
        }
        fields[2].remoteChecks = fields[1].remoteChecks
        fields[1].remoteChecks = []
        #expect(throws: FormDefinitionError.uniqueSecret(kind: "x", field: "password")) {
            try FormDefinition(kind: "x", fields: fields, submit: Self.form.submit)
        }
    }
}
