import Testing
@testable import SignupCore

/// The GitHubSignup sample, end to end in virtual time.
@Suite struct SignupScenarioTests {
    private let opening = [
        "@0 username v0: empty username.empty \"\"",
        "@0 password v0: empty password.empty \"\"",
        "@0 repeatedPassword v0: empty repeatedPassword.empty \"\"",
        "@0 submitEnabled false",
    ]

    @Test func happyPathWithoutDebounce() {
        let harness = FormHarness(script: .init(
            takenNames: ["taken"], checkLatency: .fixed(.milliseconds(100)),
            registrationLatency: .fixed(.milliseconds(1000))))
        harness.edit(at: 100, "username", "alice")
        harness.edit(at: 300, "password", "secret")
        harness.edit(at: 400, "repeatedPassword", "secre")
        harness.edit(at: 500, "repeatedPassword", "secret")
        harness.submit(at: 600)
        #expect(harness.runToIdle() == opening + [
            "@100 username v1: validating username.checking \"Checking availability...\"",
            "@200 username v1: ok username.available \"Username available\"",
            "@300 password v2: ok password.acceptable \"Password acceptable\"",
            "@400 repeatedPassword v3: failed repeatedPassword.different field=password \"Password different\"",
            "@500 repeatedPassword v4: ok repeatedPassword.matches \"Password repeated\"",
            "@500 submitEnabled true",
            "@600 submission submitting",
            "@600 submitEnabled false",
            "@1600 submission succeeded {username=alice}",
        ])
        #expect(harness.directory.checkedNames == ["alice"])
        #expect(harness.directory.registeredNames == ["alice"])
    }

    @Test func takenNameInvalidCharactersAndServerErrors() {
        let harness = FormHarness(script: .init(
            takenNames: ["Bob"], failingNames: ["flaky"], checkLatency: .fixed(.milliseconds(50))))
        harness.edit(at: 100, "username", "bob")
        harness.edit(at: 200, "username", "bob!")
        harness.edit(at: 300, "username", "flaky")
        harness.edit(at: 400, "username", "")
        #expect(harness.runToIdle() == opening + [
            "@100 username v1: validating username.checking \"Checking availability...\"",
            "@150 username v1: failed username.taken \"Username already taken\"",
            "@200 username v2: failed username.invalidCharacters \"Username can only contain numbers or digits\"",
            "@300 username v3: validating username.checking \"Checking availability...\"",
            "@350 username v3: failed backend.unavailable \"Error contacting server\"",
            "@400 username v4: empty username.empty \"\"",
        ])
        #expect(harness.directory.checkedNames == ["bob", "flaky"])
    }

    @Test func unicodeLettersAndDigitsAreValidUsernames() {
        let harness = FormHarness()
        harness.edit(at: 10, "username", "李雷2")
        harness.edit(at: 20, "username", "zoë")
        harness.edit(at: 30, "username", "ｆｕｌｌ＿ｗｉｄｔｈ")
        #expect(harness.runToIdle() == opening + [
            "@10 username v1: validating username.checking \"Checking availability...\"",
            "@10 username v1: ok username.available \"Username available\"",
            "@20 username v2: validating username.checking \"Checking availability...\"",
            "@20 username v2: ok username.available \"Username available\"",
            "@30 username v3: failed username.invalidCharacters \"Username can only contain numbers or digits\"",
        ])
        #expect(harness.directory.checkedNames == ["李雷2", "zoë"])
    }

    @Test func passwordLengthCountsCharactersAsPeopleSeeThem() {
        let harness = FormHarness()
        harness.edit(at: 10, "password", "abcd")
        harness.edit(at: 20, "password", "👍🏽👍🏽👍🏽👍🏽")
        harness.edit(at: 30, "password", "👍🏽👍🏽👍🏽👍🏽👍🏽")
        #expect(harness.runToIdle() == opening + [
            "@10 password v1: failed password.tooShort min=5 \"Password must be at least 5 characters\"",
            "@30 password v3: ok password.acceptable \"Password acceptable\"",
        ])
    }

    @Test func theRepeatedPasswordIsRecheckedWhenThePasswordChanges() {
        let harness = FormHarness()
        harness.edit(at: 10, "password", "secret")
        harness.edit(at: 20, "repeatedPassword", "secret")
        harness.edit(at: 30, "password", "secret!")
        harness.edit(at: 40, "password", "secret")
        #expect(harness.runToIdle() == opening + [
            "@10 password v1: ok password.acceptable \"Password acceptable\"",
            "@20 repeatedPassword v2: ok repeatedPassword.matches \"Password repeated\"",
            "@30 repeatedPassword v3: failed repeatedPassword.different field=password \"Password different\"",
            "@40 repeatedPassword v4: ok repeatedPassword.matches \"Password repeated\"",
        ])
    }

    @Test func submitEnabledNeverGlitchesWhenOneEditChangesTwoFields() {
        // "abcd" is too short but matches its repeat; lengthening the password makes it acceptable
        // and the repeat different in one edit, so submit must stay disabled throughout.
        let harness = FormHarness()
        harness.edit(at: 10, "username", "alice")
        harness.edit(at: 20, "password", "abcd")
        harness.edit(at: 30, "repeatedPassword", "abcd")
        harness.edit(at: 40, "password", "abcde")
        #expect(harness.runToIdle().filter { $0.contains("submitEnabled") } == ["@0 submitEnabled false"])
        #expect(harness.log(from: 40) == [
            "@40 password v4: ok password.acceptable \"Password acceptable\"",
            "@40 repeatedPassword v4: failed repeatedPassword.different field=password \"Password different\"",
        ])
    }

    @Test func openingWithValuesValidatesThemAtOnce() {
        let harness = FormHarness(
            script: .init(checkLatency: .fixed(.milliseconds(100))), debounce: 300,
            initialValues: ["username": "alice", "password": "secret", "repeatedPassword": "secret", "unknown": "x"])
        #expect(harness.runToIdle() == [
            "@0 username v0: validating username.checking \"Checking availability...\"",
            "@0 password v0: ok password.acceptable \"Password acceptable\"",
            "@0 repeatedPassword v0: ok repeatedPassword.matches \"Password repeated\"",
            "@0 submitEnabled false",
            "@400 username v0: ok username.available \"Username available\"",
            "@400 submitEnabled true",
        ])
    }
}
