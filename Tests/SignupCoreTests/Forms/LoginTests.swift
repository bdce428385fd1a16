import Testing
@testable import SignupBackends
@testable import SignupCore

/// The login form against the scripted directory, in virtual time.
@Suite struct LoginTests {
    private func signedUp(_ name: String, _ password: String) -> (VirtualTimeScheduler, ScriptedDirectory) {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(scheduler: scheduler)
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory), scheduler: scheduler, debounce: .zero)
        _ = try? form.edit("username", to: name)
        _ = try? form.edit("password", to: password)
        _ = try? form.edit("repeatedPassword", to: password)
        scheduler.run()
        try? form.submit()
        scheduler.run()
        return (scheduler, directory)
    }

    private func attempt(_ harness: FormHarness, at time: Int64, _ username: String, _ password: String) {
        harness.edit(at: time, "username", username)
        harness.edit(at: time, "password", password)
        harness.submit(at: time)
    }

    @Test func signUpThenLogInWithTheSameCredentials() {
        let (scheduler, directory) = signedUp("alice", "secret-pw")
        let harness = FormHarness(definition: .login, directory: directory, scheduler: scheduler)
        harness.form.events.subscribe()
        attempt(harness, at: 10, "alice", "secret-pw")
        let log = harness.runToIdle()
        #expect(log.contains { $0.hasPrefix("@10 submission succeeded {token=") && $0.contains("username=alice") })
        guard case .succeeded(let account) = harness.form.snapshot.submission, case .object(let members) = account,
              case .string(let token)? = members["token"] else {
            Issue.record("no token")
            return
        }
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
    }

    @Test func aWrongPasswordAndAnUnknownUserAnswerAlike() {
        let (scheduler, directory) = signedUp("alice", "secret-pw")
        let wrong = FormHarness(definition: .login, directory: directory, scheduler: scheduler)
        let unknown = FormHarness(definition: .login, directory: directory, scheduler: scheduler)
        attempt(wrong, at: 10, "alice", "not-it")
        attempt(unknown, at: 10, "mallory", "not-it")
        wrong.runToIdle()
        let expected = "submission failed login.wrongCredentials \"Wrong username or password\""
        #expect(wrong.log(from: 10).contains("@10 \(expected)"))
        #expect(unknown.log(from: 10).contains("@10 \(expected)"))
    }

    @Test func fiveFailuresInAMinuteLockTheNameUntilTheMinuteHasPassed() {
        let (scheduler, directory) = signedUp("alice", "secret-pw")
        let limiter = LoginRateLimiter(scheduler: scheduler)
        let form = FormPipeline(definition: .login, services: FormServices(directory: directory, loginLimiter: limiter),
                                scheduler: scheduler, debounce: .zero)
        var outcomes: [String] = []
        func tryLogIn(at time: Int64, _ password: String) {
            scheduler.advance(to: TimePoint(milliseconds: time))
            _ = try? form.edit("username", to: "Alice")
            _ = try? form.edit("password", to: password)
            try? form.submit()
            scheduler.run()
            if case .failed(let failure) = form.snapshot.submission { outcomes.append("@\(time) \(failure.code)") }
            if case .succeeded = form.snapshot.submission { outcomes.append("@\(time) loggedIn") }
        }
        for attempt in 0..<5 { tryLogIn(at: 1000 + Int64(attempt) * 1000, "wrong-\(attempt)") }
        tryLogIn(at: 10_000, "secret-pw")
        tryLogIn(at: 60_999, "secret-pw")
        tryLogIn(at: 61_001, "secret-pw")
        #expect(outcomes == [
            "@1000 login.wrongCredentials", "@2000 login.wrongCredentials", "@3000 login.wrongCredentials",
            "@4000 login.wrongCredentials", "@5000 login.wrongCredentials",
            "@10000 login.rateLimited", "@60999 login.rateLimited", "@61001 loggedIn",
        ])
    }
}
