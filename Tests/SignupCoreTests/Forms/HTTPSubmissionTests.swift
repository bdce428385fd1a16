import Testing
@testable import SignupBackends
@testable import SignupCore

/// `http` submissions (issue 37): what the API refuses lands on the fields it names, in form
/// order, and stays until that field is edited; a field edited since the tap keeps its edit.
@Suite struct HTTPSubmissionTests {
    static let form = try! FormDefinition(
        kind: "join",
        fields: [FieldDefinition(name: "email"), FieldDefinition(name: "username"), FieldDefinition(name: "password", isSecret: true)],
        submit: SubmitAction(
            kind: .http(HTTPSubmission(url: try! TextTemplate("https://api.example/accounts"), secretMembers: ["token"])),
            messages: [.refused: Message("join.refused", "Refused ({status})"), .unavailable: Message("backend.unavailable", "Down")]))

    static let values = ["email": "bea@example.com", "username": "bea", "password": "correct horse"]

    @Test func fieldIssuesGoOnTheirFieldsInFormOrderThenTheSubmissionFails() {
        var store = FormReducerTests.Store(Self.form, values: Self.values)
        let tap = store.send(.tap)
        #expect(tap.effects == [.submit(values: ["bea@example.com", "bea", "correct horse"])])
        let refused = store.send(.submissionRefused(
            fieldIssues: [
                ReportedIssue(field: "username", code: "username.taken", message: "{name} is taken", params: ["name": "bea"]),
                ReportedIssue(field: "email", code: "email.taken", message: "Already registered"),
                ReportedIssue(field: "username", code: "username.second", message: "Only the first issue of a field shows"),
            ],
            failure: SubmissionFailure(code: "join.refused", params: ["status": 422], message: "Refused (422)")))
        #expect(refused.events == [
            "email v0: failed email.taken \"Already registered\"",
            "username v0: failed username.taken name=bea \"bea is taken\"",
            "submission failed join.refused \"Refused (422)\"",
        ])
        #expect(store.send(.submissionEnded).events == [])
        #expect(store.state.submitRejection == .invalid)
        // Editing a field clears its reported result: the other one still holds submit back.
        #expect(store.send(.edit(field: 0, value: "bea2@example.com", budget: MatchBudget())).events == ["email v1: ok email.ok \"\""])
        let username = store.send(.edit(field: 1, value: "bea2", budget: MatchBudget()))
        #expect(username.events == ["username v2: ok username.ok \"\"", "submitEnabled true"])
    }

    @Test func aFieldEditedSinceTheTapKeepsItsEdit() {
        var store = FormReducerTests.Store(Self.form, values: Self.values)
        _ = store.send(.tap)
        _ = store.send(.edit(field: 1, value: "bea2", budget: MatchBudget()))
        let refused = store.send(.submissionRefused(
            fieldIssues: [ReportedIssue(field: "email", code: "email.taken", message: "Taken"), ReportedIssue(field: "username", code: "username.taken", message: "Taken")],
            failure: SubmissionFailure(code: "join.refused", params: [:], message: "Refused")))
        #expect(refused.events == ["email v0: failed email.taken \"Taken\"", "submission failed join.refused \"Refused\""])
    }

    /// The runtime, with the scripted directory answering the kind's submissions.
    @Test func theScriptedDirectoryAnswersByFieldValuesAndTheResultIsMasked() {
        var script = ScriptedDirectory.Script()
        script.submissions["join"] = .init(
            cases: [.init(when: ["username": "bea"], answer: .submission(.refused(status: 409, body: .object(["username": .array(["taken"])])))),
                    .init(when: ["username": "down"], answer: .failure(.timedOut))],
            otherwise: .submission(.accepted(.object(["id": 7, "token": "t0k", "nested": .object(["token": "t1k"])]))),
            latency: .fixed(.milliseconds(100)))
        let harness = FormHarness(script: script, definition: Self.form, initialValues: Self.values)
        harness.submit(at: 10)
        harness.edit(at: 500, "username", "down")
        harness.submit(at: 600)
        harness.edit(at: 1000, "username", "cy")
        harness.submit(at: 1100)
        #expect(harness.runToIdle().filter { !$0.hasPrefix("@0 ") } == [
            "@10 submission submitting", "@10 submitEnabled false",
            "@110 username v0: failed server.invalid \"taken\"",
            "@110 submission failed join.refused \"Refused (409)\"",
            "@500 username v1: ok username.ok \"\"", "@500 submitEnabled true",
            "@600 submission submitting", "@600 submitEnabled false",
            "@700 submission failed backend.unavailable \"Down\"", "@700 submitEnabled true",
            "@1100 submission submitting", "@1100 submitEnabled false",
            "@1200 submission succeeded {id=7,nested={token=[secret]},token=[secret]}",
        ])
    }
}
