import Testing
@testable import SignupBackends
@testable import SignupCore

/// Several named remote checks on one field (issue 37): asked in order, each after its own quiet
/// interval, the first rejection deciding; what a backend reports shown on the field; a check
/// that reads another field asked again when that field changes.
@Suite struct NamedCheckTests {
    static func check(_ name: String, _ url: String, debounceMs: Int64? = nil, failsOpen: Bool = false) -> RemoteCheck {
        RemoteCheck(
            name: name,
            kind: .http(HTTPCheck(url: try! TextTemplate(url), whenUnavailable: failsOpen ? .pass : .unavailable)),
            debounce: debounceMs.map(TimeSpan.milliseconds),
            validating: Message("invite.checking", "Checking the invite..."),
            passed: Message("invite.valid", "Invite accepted"),
            rejected: Message("invite.\(name).rejected", "Rejected by \(name)"),
            unavailable: Message("backend.unavailable", "Error contacting server"))
    }

    /// `email`, then `invite` with two checks: `inviteExists`, then `inviteForEmail` (which reads
    /// `email`, waits 500 ms and fails open), then a password.
    static let inviteForm = try! FormDefinition(
        kind: "invite-signup",
        fields: [
            FieldDefinition(name: "email"),
            FieldDefinition(name: "invite", remoteChecks: [
                check("inviteExists", "https://api.example/invites/{value}"),
                check("inviteForEmail", "https://api.example/invites/{value}?email={email}", debounceMs: 500, failsOpen: true),
            ]),
            FieldDefinition(name: "password", isSecret: true),
        ],
        submit: SubmitAction(kind: .registerAccount(usernameField: "email", passwordField: "password")))

    @Test func eachCheckIsAskedOnlyAfterTheOneBeforeItPassed() {
        var store = FormReducerTests.Store(Self.inviteForm, values: ["email": "ann@example.com"])
        let typed = store.send(.edit(field: 1, value: "X1", budget: MatchBudget()))
        #expect(typed.events == ["invite v1: validating invite.checking \"Checking the invite...\""])
        #expect(typed.effects == [.check(field: 1, check: 0, value: "X1", version: 1)])
        #expect(store.send(.checkDue(field: 1, check: 0, value: "X1", version: 1)).effects == [
            .ask(field: 1, check: 0, value: "X1", others: [], version: 1),
        ])
        let first = store.send(.checkAnswered(field: 1, check: 0, value: "X1", version: 1, answer: .success(.passed)))
        #expect(first.events == [])
        #expect(first.effects == [.check(field: 1, check: 1, value: "X1", version: 1)])
        // The second check sends the email it reads.
        #expect(store.send(.checkDue(field: 1, check: 1, value: "X1", version: 1)).effects == [
            .ask(field: 1, check: 1, value: "X1", others: ["ann@example.com"], version: 1),
        ])
        let second = store.send(.checkAnswered(field: 1, check: 1, value: "X1", version: 1, answer: .success(.passed)))
        #expect(second.events == ["invite v1: ok invite.valid \"Invite accepted\""])
        #expect(second.effects == [])
    }

    @Test func theFirstRejectionDecidesAndWhatTheBackendReportedIsShownEachTimeItIsAsked() {
        var store = FormReducerTests.Store(Self.inviteForm, values: ["email": "ann@example.com"])
        // A plain rejection shows the check's own message.
        _ = store.send(.edit(field: 1, value: "X2", budget: MatchBudget()))
        let plain = store.send(.checkAnswered(field: 1, check: 0, value: "X2", version: 1, answer: .success(.rejected(nil))))
        #expect(plain.events == ["invite v1: failed invite.inviteExists.rejected \"Rejected by inviteExists\""])
        #expect(plain.effects == [])
        // A rejection with the backend's own words shows them.
        _ = store.send(.edit(field: 1, value: "X1", budget: MatchBudget()))
        let issue = ReportedIssue(field: nil, code: "invite.expired", message: "This invite expired on {date}", params: ["date": "2026-10-01"])
        let rejected = store.send(.checkAnswered(field: 1, check: 0, value: "X1", version: 2, answer: .success(.rejected(issue))))
        #expect(rejected.events == ["invite v2: failed invite.expired date=2026-10-01 \"This invite expired on 2026-10-01\""])
        #expect(store.state.submitRejection == .invalid)
        // Away and back to X1: not asked again; the last answer, the backend's own words, shows
        // again (issue 54: every check kind remembers its last answer).
        _ = store.send(.edit(field: 1, value: "X3", budget: MatchBudget()))
        _ = store.send(.edit(field: 1, value: "X1", budget: MatchBudget()))
        let again = store.send(.checkDue(field: 1, check: 0, value: "X1", version: 4))
        #expect(again.effects == [])
        #expect(again.events == ["invite v4: failed invite.expired date=2026-10-01 \"This invite expired on 2026-10-01\""])
    }

    /// A check that reads another field remembers its answer for both values: with the e-mail
    /// changed, the same invite is a new question.
    @Test func aRememberedAnswerIsForTheOtherFieldsValuesToo() {
        var store = FormReducerTests.Store(Self.inviteForm, values: ["email": "ann@example.com"])
        _ = store.send(.edit(field: 1, value: "X1", budget: MatchBudget()))
        _ = store.send(.checkAnswered(field: 1, check: 0, value: "X1", version: 1, answer: .success(.passed)))
        _ = store.send(.checkAnswered(field: 1, check: 1, value: "X1", version: 1, answer: .success(.passed)))
        #expect(store.send(.edit(field: 0, value: "bea@example.com", budget: MatchBudget())).effects
            == [.check(field: 1, check: 0, value: "X1", version: 2)])
        // The invite is judged again: its first check remembers X1, its second is asked anew.
        #expect(store.send(.checkDue(field: 1, check: 0, value: "X1", version: 2)).effects
            == [.check(field: 1, check: 1, value: "X1", version: 2)])
        #expect(store.send(.checkDue(field: 1, check: 1, value: "X1", version: 2)).effects == [
            .ask(field: 1, check: 1, value: "X1", others: ["bea@example.com"], version: 2),
        ])
    }

    @Test func aFailOpenCheckPassesWhenItsBackendIsDownAndAFailClosedOneDoesNot() {
        var store = FormReducerTests.Store(Self.inviteForm, values: ["email": "ann@example.com"])
        _ = store.send(.edit(field: 1, value: "X1", budget: MatchBudget()))
        let down = BackendError.unavailable(reason: "down")
        let closed = store.send(.checkAnswered(field: 1, check: 0, value: "X1", version: 1, answer: .failure(down)))
        #expect(closed.events == ["invite v1: failed backend.unavailable \"Error contacting server\""])
        _ = store.send(.edit(field: 1, value: "X2", budget: MatchBudget()))
        _ = store.send(.checkAnswered(field: 1, check: 0, value: "X2", version: 2, answer: .success(.passed)))
        let open = store.send(.checkAnswered(field: 1, check: 1, value: "X2", version: 2, answer: .failure(down)))
        // Passed, and named apart from a real pass (issue 54).
        #expect(open.events == ["invite v2: ok check.skipped \"Accepted without this check: the service could not be reached\""])
    }

    @Test func editingAFieldACheckReadsAsksTheCheckAgain() {
        var store = FormReducerTests.Store(Self.inviteForm, values: ["email": "ann@example.com", "invite": "X1"])
        #expect(store.openingEffects == [.check(field: 1, check: 0, value: "X1", version: 0)])
        let email = store.send(.edit(field: 0, value: "bob@example.com", budget: MatchBudget()))
        #expect(email.events == [])
        #expect(email.effects == [.check(field: 1, check: 0, value: "X1", version: 1)])
    }

    /// The whole path on the virtual clock, answered by the scripted directory's `checks`.
    @Test func checksRunInOrderOnTheVirtualClockWithTheirOwnIntervals() {
        var script = ScriptedDirectory.Script()
        script.checks = [
            "inviteExists": .init(
                rejected: ["NOPE"],
                answers: ["OLD": ReportedIssue(field: nil, code: "invite.expired", message: "Expired", params: ["days": 3])],
                latency: .fixed(.milliseconds(40))),
            "inviteForEmail": .init(rejected: ["X1"], failing: ["X2"], latency: .fixed(.milliseconds(60))),
        ]
        let harness = FormHarness(script: script, debounce: 300, definition: Self.inviteForm)
        harness.edit(at: 0, "email", "ann@example.com")
        harness.edit(at: 0, "password", "secret")
        harness.edit(at: 100, "invite", "OLD")
        harness.edit(at: 1000, "invite", "X1")
        harness.edit(at: 2000, "invite", "X2")
        harness.edit(at: 3000, "invite", "NOPE")
        harness.edit(at: 3100, "invite", "X3")
        #expect(harness.runToIdle().filter { $0.contains("invite") } == [
            "@0 invite v0: empty invite.empty \"\"",
            // Quiet at 400, answered at 440, with the backend's own code and params.
            "@100 invite v3: validating invite.checking \"Checking the invite...\"",
            "@440 invite v3: failed invite.expired days=3 \"Expired\"",
            // The first check passes at 1340; the second is due 500 ms after the edit, at 1500, and answers at 1560.
            "@1000 invite v4: validating invite.checking \"Checking the invite...\"",
            "@1560 invite v4: failed invite.inviteForEmail.rejected \"Rejected by inviteForEmail\"",
            // The second check's backend fails: it fails open, and says so.
            "@2000 invite v5: validating invite.checking \"Checking the invite...\"",
            "@2560 invite v5: ok check.skipped \"Accepted without this check: the service could not be reached\"",
            // A value that replaces one being checked stays `validating`: no event until its own answer.
            "@3000 invite v6: validating invite.checking \"Checking the invite...\"",
            "@3660 invite v7: ok invite.valid \"Invite accepted\"",
        ])
    }
}
