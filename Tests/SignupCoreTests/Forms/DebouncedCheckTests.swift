import Testing
@testable import SignupBackends
@testable import SignupCore

/// Debounced, latest-only remote checks.
@Suite struct DebouncedCheckTests {
    @Test func aBurstOfKeystrokesGivesOneCheckForTheLastValue() {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300)
        for (offset, prefix) in ["a", "al", "ali", "alic", "alice"].enumerated() {
            harness.edit(at: 100 + Int64(offset) * 50, "username", prefix)
        }
        #expect(harness.runToIdle().dropFirst(4) == [
            "@100 username v1: validating username.checking \"Checking availability...\"",
            "@700 username v5: ok username.available \"Username available\"",
        ])
        #expect(harness.directory.checkedNames == ["alice"])
    }

    @Test func aDirectoryThatDoesNotRecordRequestsAnswersTheSameAndKeepsNoNames() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(
            script: .init(takenNames: ["bob"], checkLatency: .fixed(.milliseconds(100))), scheduler: scheduler,
            recordsRequests: false)
        var answers: [Availability] = []
        for name in ["alice", "bob"] { directory.availability(of: name).subscribe(onNext: { answers.append($0) }) }
        scheduler.run()
        #expect(answers == [.available, .taken])
        #expect(directory.checkedNames.isEmpty)
    }

    @Test func submitIsDisabledFromTheKeystrokeUntilTheCheckAnswers() {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300)
        harness.edit(at: 0, "password", "secret")
        harness.edit(at: 0, "repeatedPassword", "secret")
        harness.edit(at: 10, "username", "alice")
        harness.edit(at: 1000, "username", "alice2")
        harness.submit(at: 1100)
        #expect(harness.runToIdle().filter { $0.contains("submitEnabled") || $0.contains("rejected") } == [
            "@0 submitEnabled false",
            "@410 submitEnabled true",
            "@1000 submitEnabled false",
            "@1100 rejected validating",
            "@1400 submitEnabled true",
        ])
    }

    @Test func aNewerEditCancelsTheCheckInFlightAndItsAnswerIsNeverShown() {
        let harness = FormHarness(script: .init(takenNames: ["alice"], checkLatency: .fixed(.milliseconds(100))))
        harness.edit(at: 0, "username", "alice")
        harness.edit(at: 50, "username", "bob")
        #expect(harness.runToIdle().dropFirst(4) == [
            "@0 username v1: validating username.checking \"Checking availability...\"",
            "@150 username v2: ok username.available \"Username available\"",
        ])
        #expect(harness.directory.checkedNames == ["alice", "bob"])
        #expect(harness.form.checksInFlight == 0)
    }

    @Test func aStaleAnswerArrivingAfterANewerOneIsDropped() {
        // The first check is slow and the second fast: the ReactiveCocoa article's open problem.
        let scheduler = VirtualTimeScheduler()
        let directory = SlowThenFastDirectory(scheduler: scheduler, latencies: [500, 50])
        let form = FormPipeline(
            definition: .signup, services: FormServices(availability: directory, registration: directory), scheduler: scheduler, debounce: .zero)
        var results: [String] = []
        form.events.subscribe(onNext: { event in
            if case .fieldChanged(let update) = event, update.field == "username" {
                results.append("@\(scheduler.now.milliseconds) v\(update.version) \(update.result.code)")
            }
        })
        scheduler.schedule(after: .milliseconds(10)) { _ = try? form.edit("username", to: "slow") }
        scheduler.schedule(after: .milliseconds(20)) { _ = try? form.edit("username", to: "fast") }
        scheduler.run()
        #expect(results == ["@0 v0 username.empty", "@10 v1 username.checking", "@70 v2 username.available"])
        #expect(directory.cancelled == ["slow"])
    }

    @Test func aLocalFailureCancelsThePendingCheck() {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300)
        harness.edit(at: 0, "username", "alice")
        harness.edit(at: 100, "username", "alice!")
        harness.edit(at: 1000, "username", "carol")
        harness.edit(at: 1350, "username", "")
        harness.at(1351) { form in #expect(form.checksInFlight == 0) }
        #expect(harness.runToIdle().dropFirst(4) == [
            "@0 username v1: validating username.checking \"Checking availability...\"",
            "@100 username v2: failed username.invalidCharacters \"Username can only contain numbers or digits\"",
            "@1000 username v3: validating username.checking \"Checking availability...\"",
            "@1350 username v4: empty username.empty \"\"",
        ])
        #expect(harness.directory.checkedNames == ["carol"])
    }

    @Test func oneCheckPerSettledValueHoweverManySubscribersListen() {
        let harness = FormHarness(script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300)
        var extra: [[FormEvent]] = [[], [], []]
        for index in extra.indices {
            harness.form.events.subscribe(onNext: { extra[index].append($0) })
        }
        harness.edit(at: 0, "username", "alice")
        harness.edit(at: 500, "username", "alicex")
        harness.edit(at: 550, "username", "alice")
        #expect(harness.runToIdle().dropFirst(4) == [
            "@0 username v1: validating username.checking \"Checking availability...\"",
            "@400 username v1: ok username.available \"Username available\"",
            "@500 username v2: validating username.checking \"Checking availability...\"",
            "@850 username v3: ok username.available \"Username available\"",
        ])
        #expect(harness.directory.checkedNames == ["alice"])
        #expect(extra.allSatisfy { $0.count == extra[0].count && $0.count == 8 })
    }

    @Test func settingTheSameValueAgainChangesNothing() throws {
        let harness = FormHarness()
        let first = try harness.form.edit("username", to: "alice")
        let again = try harness.form.edit("username", to: "alice")
        #expect(first == 1 && again == 1)
        #expect(harness.form.version == 1)
        #expect(throws: FormError.unknownField("email", kind: "signup")) { try harness.form.edit("email", to: "x") }
    }
}

/// A directory whose successive availability checks take the given latencies; records cancellations.
private final class SlowThenFastDirectory: UsernameAvailabilityChecking, AccountRegistering {
    private let scheduler: any Scheduler
    private var latencies: [Int64]
    private(set) var cancelled: [String] = []

    init(scheduler: any Scheduler, latencies: [Int64]) {
        self.scheduler = scheduler
        self.latencies = latencies
    }

    func availability(of username: String) -> EventStream<Availability> {
        EventStream { observer in
            let latency = self.latencies.removeFirst()
            var answered = false
            let timer = self.scheduler.schedule(after: .milliseconds(latency)) {
                answered = true
                observer.onNext(username == "slow" ? .taken : .available)
                observer.onCompleted()
            }
            return Disposables.create {
                timer.dispose()
                if !answered { self.cancelled.append(username) }
            }
        }
    }

    func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        .just(.registered(account: .object(["username": .string(username)])))
    }
}
