import Testing
@testable import SignupBackends
@testable import SignupCore

/// What the scripted directory answers, from its lists and from registrations made on it.
@Suite struct ScriptedDirectoryTests {
    private func directory(_ script: ScriptedDirectory.Script) -> (ScriptedDirectory, VirtualTimeScheduler) {
        let scheduler = VirtualTimeScheduler()
        return (ScriptedDirectory(script: script, scheduler: scheduler), scheduler)
    }

    @Test func failingBeatsTakenBeatsFreeBeatsTheDefault() {
        let (directory, _) = directory(.init(
            takenNames: ["both", "all", "Taken"], freeNames: ["both", "all", "free"], failingNames: ["all", "down"],
            defaultVerdict: .taken))
        let names = ["all", "both", "down", "taken", "TAKEN", "free", "Free", "other"]
        #expect(names.map { directory.verdict(for: $0) } == [
            .unavailable, .taken, .unavailable, .taken, .taken, .available, .available, .taken,
        ])
    }

    @Test func namesWithAccountsAreTaken() {
        let (directory, _) = directory(.init(freeNames: ["ann"], accounts: ["Ann": PasswordHasher.decoyHash]))
        #expect(directory.verdict(for: "ann") == .taken)
        #expect(directory.verdict(for: "bea") == .available)
    }

    @Test func aRegistrationTakesAFreeNameButLeavesAFailingOneFailing() {
        let (directory, scheduler) = directory(.init(freeNames: ["ann"], failingNames: ["flaky"]))
        var outcomes: [RegistrationOutcome] = []
        for name in ["Ann", "flaky", "ann"] {
            _ = directory.register(username: name, password: "secret").subscribe(onNext: { outcomes.append($0) })
            scheduler.run()
        }
        #expect(outcomes == [
            .registered(account: .object(["username": .string("Ann")])),
            .registered(account: .object(["username": .string("flaky")])),
            .usernameTaken,
        ])
        #expect(directory.verdict(for: "ann") == .taken)
        #expect(directory.verdict(for: "flaky") == .unavailable)
        #expect(directory.verdict(for: "bea") == .available)
    }

    @Test func aTakenNameThatAlsoFailsStillRefusesRegistration() {
        let (directory, scheduler) = directory(.init(takenNames: ["bob"], failingNames: ["bob"]))
        var outcomes: [RegistrationOutcome] = []
        _ = directory.register(username: "bob", password: "secret").subscribe(onNext: { outcomes.append($0) })
        scheduler.run()
        #expect(outcomes == [.usernameTaken])
        #expect(directory.verdict(for: "bob") == .unavailable)
    }
}
