import Testing
@testable import SignupBackends
@testable import SignupCore

@Suite struct SubmitTests {
    /// Fills the sign-up form validly at time 0 (no debounce, no latency).
    private func filled(_ harness: FormHarness, username: String = "alice") {
        harness.edit(at: 0, "username", username)
        harness.edit(at: 0, "password", "secret")
        harness.edit(at: 0, "repeatedPassword", "secret")
    }

    @Test func aTapIsRejectedWithTheReasonWhileSubmitIsDisabled() {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))))
        harness.submit(at: 10)
        harness.edit(at: 20, "username", "alice")
        harness.edit(at: 20, "password", "secret")
        harness.edit(at: 20, "repeatedPassword", "secret")
        harness.submit(at: 30)
        harness.edit(at: 200, "repeatedPassword", "secreT")
        harness.submit(at: 210)
        let rejections = harness.runToIdle().filter { $0.contains("rejected") }
        #expect(rejections == ["@10 rejected invalid", "@30 rejected validating", "@210 rejected invalid"])
        #expect(harness.directory.registrationAttempts == 0)
    }

    @Test func aSecondTapWhileSubmittingIsRejectedAndOnlyOneRegistrationRuns() {
        let harness = FormHarness(script: .init(registrationLatency: .fixed(.milliseconds(1000))))
        filled(harness)
        harness.submit(at: 100)
        harness.submit(at: 150)
        #expect(harness.runToIdle().drop { !$0.hasPrefix("@100 ") } == [
            "@100 submission submitting",
            "@100 submitEnabled false",
            "@150 rejected submitting",
            "@1100 submission succeeded {username=alice}",
        ])
        #expect(harness.directory.registrationAttempts == 1)
    }

    @Test func valuesAreSnapshottedAtTheTap() {
        let harness = FormHarness(script: .init(registrationLatency: .fixed(.milliseconds(1000))))
        filled(harness)
        harness.submit(at: 100)
        harness.edit(at: 200, "username", "mallory")
        harness.runToIdle()
        #expect(harness.directory.registeredNames == ["alice"])
        #expect(harness.log(from: 1100).contains("@1100 submission succeeded {username=alice}"))
    }

    @Test func aFailedSubmissionCanBeRetried() throws {
        // Find a seed whose first roll fails and second succeeds at a 50% failure rate.
        let seed = try #require((0..<1000).first { (seed: UInt64) in
            var generator = SeededGenerator(seed: seed)
            return generator.nextUnitInterval() < 0.5 && generator.nextUnitInterval() >= 0.5
        })
        let harness = FormHarness(script: .init(
            registrationLatency: .fixed(.milliseconds(500)), registrationFailureRate: 0.5, seed: seed))
        filled(harness)
        harness.submit(at: 100)
        harness.submit(at: 700)
        #expect(harness.runToIdle().drop { !$0.hasPrefix("@100 ") } == [
            "@100 submission submitting",
            "@100 submitEnabled false",
            "@600 submission failed signup.failed \"Sign-up failed, please try again\"",
            "@600 submitEnabled true",
            "@700 submission submitting",
            "@700 submitEnabled false",
            "@1200 submission succeeded {username=alice}",
        ])
        #expect(harness.directory.registeredNames == ["alice"])
        #expect(harness.directory.registrationAttempts == 2)
    }

    @Test func aRegisteredNameIsTakenAfterwards() {
        let harness = FormHarness()
        filled(harness)
        harness.submit(at: 100)
        harness.edit(at: 200, "username", "alice2")
        harness.edit(at: 300, "username", "Alice")
        #expect(harness.runToIdle().drop { !$0.hasPrefix("@100 ") } == [
            "@100 submission submitting",
            "@100 submitEnabled false",
            "@100 submission succeeded {username=alice}",
            "@200 username v4: validating username.checking \"Checking availability...\"",
            "@200 username v4: ok username.available \"Username available\"",
            "@200 submitEnabled true",
            "@300 username v5: validating username.checking \"Checking availability...\"",
            "@300 submitEnabled false",
            "@300 username v5: failed username.taken \"Username already taken\"",
        ])

        let second = FormHarness(directory: harness.directory, scheduler: harness.scheduler)
        second.edit(at: 400, "username", "alice")
        #expect(second.runToIdle().last == "@400 username v1: failed username.taken \"Username already taken\"")
    }

    @Test func losingARegistrationRaceFailsWithTaken() {
        let first = FormHarness(script: .init(registrationLatency: .fixed(.milliseconds(100))))
        let second = FormHarness(directory: first.directory, scheduler: first.scheduler)
        filled(first)
        filled(second)
        first.submit(at: 10)
        second.submit(at: 20)
        first.runToIdle()
        #expect(first.log(from: 10).contains("@110 submission succeeded {username=alice}"))
        #expect(second.log(from: 10) == [
            "@20 submission submitting",
            "@20 submitEnabled false",
            "@120 submission failed username.taken \"Username already taken\"",
            "@120 submitEnabled true",
        ])
    }

    @Test func aBackendErrorDuringSubmissionFailsAsUnavailable() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(scheduler: scheduler)
        let form = FormPipeline(
            definition: .signup,
            services: FormServices(availability: directory, registration: FailingRegistration()),
            scheduler: scheduler, debounce: .zero)
        for (field, value) in [("username", "alice"), ("password", "secret"), ("repeatedPassword", "secret")] {
            _ = try? form.edit(field, to: value)
        }
        scheduler.run()
        #expect(throws: Never.self) { try form.submit() }
        scheduler.run()
        #expect(form.snapshot.submission == .failed(SubmissionFailure(Message("backend.unavailable", "Error contacting server"))))
        #expect(form.snapshot.submitEnabled)
        #expect(!form.isSubmitting)
    }

    @Test func closingCancelsTheSubmissionAndEndsTheEvents() {
        let harness = FormHarness(script: .init(
            checkLatency: .fixed(.milliseconds(50)), registrationLatency: .fixed(.milliseconds(1000))))
        filled(harness)
        harness.submit(at: 100)
        harness.at(200) { form in
            form.close()
            #expect(!form.isSubmitting)
            #expect(throws: FormError.closed) { try form.edit("username", to: "x") }
        }
        #expect(harness.runToIdle().last == "@200 completed")
        #expect(harness.directory.registeredNames.isEmpty)
        #expect(harness.scheduler.pendingCount == 0)
    }

    @Test func aFormDroppedWithoutClosingIsClosedByItsDeinit() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(
            script: .init(checkLatency: .fixed(.milliseconds(50)), registrationLatency: .fixed(.milliseconds(1000))),
            scheduler: scheduler)
        var log: [String] = []
        var subscription: (any Disposable)?
        do {
            let form = FormPipeline(definition: .signup, services: FormServices(directory: directory), scheduler: scheduler)
            subscription = form.events.subscribe(onNext: { _ in log.append("event") }, onCompleted: { log.append("completed") })
            _ = try? form.edit("username", to: "alice")
            _ = try? form.edit("password", to: "secret")
            _ = try? form.edit("repeatedPassword", to: "secret")
            scheduler.advance(to: TimePoint(milliseconds: 400))
            try? form.submit()
            #expect(form.isSubmitting)
            _ = try? form.edit("username", to: "alice2")
            #expect(scheduler.pendingCount == 2)
            log = []
        }
        // The subscription still exists, but the form is gone: it closed as it went.
        #expect(log == ["completed"])
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.run() == 0)
        #expect(directory.registeredNames.isEmpty)
        subscription?.dispose()
    }

    /// From another module, as the server subscribes: `EventStream`'s inlinable subscribing code.
    @Test func aSecondSubscriptionSeesWhatTheFirstDoesUntilItIsDisposed() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: .init(checkLatency: .fixed(.milliseconds(50))), scheduler: scheduler)
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory), scheduler: scheduler)
        var viaStream: [FormEvent] = [], viaClosure: [FormEvent] = []
        form.events.subscribe(onNext: { viaStream.append($0) })
        let subscription = form.events.subscribe(onNext: { viaClosure.append($0) })
        _ = try? form.edit("username", to: "alice")
        _ = try? form.edit("password", to: "secret")
        scheduler.run()
        subscription.dispose()
        _ = try? form.edit("password", to: "sec")
        #expect(viaStream.count == viaClosure.count + 1)
        #expect(Array(viaStream.dropLast()) == viaClosure)
        #expect(viaClosure.count == 4 + 3)
    }

    /// The form sends each change to the subscribers it had when the change began, so one that
    /// unsubscribes while it is called neither stops nor shifts the others' events.
    @Test func anObserverThatUnsubscribesWhileCalledLeavesTheOthersEveryEvent() {
        let scheduler = VirtualTimeScheduler()
        let form = FormPipeline(definition: .signup, services: FormServices(directory: ScriptedDirectory(scheduler: scheduler)), scheduler: scheduler)
        _ = try? form.edit("repeatedPassword", to: "secret")
        var isListening = false
        var leaving: [String] = [], staying: [String] = [], last: [String] = []
        var subscription: (any Disposable)?
        subscription = form.events.subscribe(onNext: { event in
            guard isListening else { return }
            leaving.append(FormHarness.describe(event))
            subscription?.dispose()
        })
        form.events.subscribe(onNext: { if isListening { staying.append(FormHarness.describe($0)) } })
        form.events.subscribe(onNext: { if isListening { last.append(FormHarness.describe($0)) } })
        isListening = true
        // The password and the repeat that must match it change together.
        _ = try? form.edit("password", to: "secret")
        #expect(leaving == [#"password v2: ok password.acceptable "Password acceptable""#])
        #expect(staying == [
            #"password v2: ok password.acceptable "Password acceptable""#,
            #"repeatedPassword v2: ok repeatedPassword.matches "Password repeated""#,
        ])
        #expect(last == staying)
    }

    @Test func aSnapshotShowsTheCurrentStateForALateView() {
        let harness = FormHarness(script: .init(takenNames: ["bob"]))
        harness.edit(at: 0, "username", "bob")
        harness.edit(at: 0, "password", "abc")
        harness.runToIdle()
        let snapshot = harness.form.snapshot
        #expect(snapshot.fields.map { "\($0.field) v\($0.version): \($0.result)" } == [
            "username v1: failed username.taken \"Username already taken\"",
            "password v2: failed password.tooShort min=5 \"Password must be at least 5 characters\"",
            "repeatedPassword v2: empty repeatedPassword.empty \"\"",
        ])
        #expect(!snapshot.submitEnabled)
        #expect(snapshot.submission == .idle)
    }
}

private final class FailingRegistration: AccountRegistering {
    func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        .fail(BackendError.unavailable(reason: "connection refused"))
    }
}
