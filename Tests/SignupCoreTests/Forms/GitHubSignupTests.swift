import Testing
@testable import SignupBackends
@testable import SignupCore

/// signup-github: each rule and each outcome, in virtual time.
@Suite struct GitHubSignupTests {
    private func usernameResult(_ value: String, taken: Set<String> = []) -> String {
        let harness = FormHarness(script: .init(takenNames: taken), definition: .githubSignup)
        harness.edit(at: 10, "username", value)
        return harness.runToIdle().last { $0.contains("username v") }!
    }

    private func passwordResult(_ value: String) -> String {
        let harness = FormHarness(definition: .githubSignup)
        harness.edit(at: 10, "password", value)
        return harness.runToIdle().last { $0.contains("password v") }!
    }

    @Test(arguments: [
        ("a", "ok username.available"),
        ("octo-cat-9", "ok username.available"),
        (String(repeating: "x", count: 39), "ok username.available"),
        (String(repeating: "x", count: 40), "failed username.tooLong max=39"),
        ("-octo", "failed username.invalidFormat"),
        ("octo-", "failed username.invalidFormat"),
        ("octo--cat", "failed username.invalidFormat"),
        ("octo_cat", "failed username.invalidFormat"),
        ("zoë", "failed username.invalidFormat"),
        ("Admin", "failed username.reserved"),
        ("www", "failed username.reserved"),
    ])
    func usernameRules(value: String, expected: String) {
        #expect(usernameResult(value).contains(" v1: \(expected)"))
    }

    @Test func namesAreUniqueCaseInsensitivelyAndNormalisedFirst() {
        #expect(usernameResult("OctoCat", taken: ["octocat"]).contains("failed username.taken"))
        // Fullwidth letters are NFKC-normalised to ASCII before the rules see them.
        #expect(usernameResult("ｏｃｔｏ", taken: ["octo"]).contains("failed username.taken"))
    }

    @Test(arguments: [
        ("abcdefghijklmno", "ok password.acceptable"),
        ("abcdefgh1", "ok password.acceptable"),
        ("abcdefg1", "ok password.acceptable"),
        ("abcdefgh", "failed password.tooWeak"),
        ("ABCDEFG1", "failed password.tooWeak"),
        ("abc1", "failed password.tooWeak"),
        (String(repeating: "a", count: 256), "ok password.acceptable"),
        (String(repeating: "a", count: 257), "failed password.tooLong max=256"),
    ])
    func passwordRules(value: String, expected: String) {
        #expect(passwordResult(value).contains(" v1: \(expected)"))
    }

    @Test func theRepeatIsComparedAfterNormalisation() {
        let harness = FormHarness(definition: .githubSignup)
        harness.edit(at: 10, "password", "ｐａｓｓｗｏｒｄ１２３")
        harness.edit(at: 20, "repeatedPassword", "password123")
        #expect(harness.runToIdle().last == "@20 repeatedPassword v2: ok repeatedPassword.matches \"Password repeated\"")
    }

    @Test func longPasswordsAreNeverTruncated() throws {
        let base = String(repeating: "p4ssw0rd", count: 32)
        let hash = try PasswordHasher.hash(base + "A")
        #expect(PasswordHasher.verify(base + "A", against: hash))
        #expect(!PasswordHasher.verify(base + "B", against: hash))
    }
}

/// The same session in English and Simplified Chinese differs only in message texts.
@Suite struct TranslationTests {
    private func session(_ catalog: MessageCatalog) -> [FormEvent] {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: .init(takenNames: ["bob"]), scheduler: scheduler)
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory),
                                scheduler: scheduler, debounce: .zero, catalog: catalog)
        var events: [FormEvent] = []
        form.events.subscribe(onNext: { events.append($0) })
        for (field, value) in [("username", "bob"), ("username", "b ob"), ("password", "abc"), ("password", "secret"),
                               ("repeatedPassword", "secreT"), ("repeatedPassword", "secret"), ("username", "alice")] {
            _ = try? form.edit(field, to: value)
            scheduler.run()
        }
        return events
    }

    private func messages(_ events: [FormEvent]) -> [String] {
        events.compactMap { if case .fieldChanged(let update) = $0 { return update.result.message } else { return nil } }
    }

    private func withoutMessages(_ events: [FormEvent]) -> [FormEvent] {
        events.map { event in
            guard case .fieldChanged(var update) = event else { return event }
            update.result.message = ""
            return .fieldChanged(update)
        }
    }

    @Test func onlyTheMessageTextsDiffer() {
        let english = session(.english)
        let chinese = session(.simplifiedChinese)
        #expect(withoutMessages(english) == withoutMessages(chinese))
        #expect(messages(chinese).filter { !$0.isEmpty } == [
            "正在检查用户名是否可用…", "用户名已被占用", "用户名只能包含字母或数字",
            "密码至少需要 5 个字符", "验证通过", "两次输入的密码不一致", "验证通过",
            "正在检查用户名是否可用…", "用户名可用",
        ])
        #expect(messages(english).filter { !$0.isEmpty }.contains("Password must be at least 5 characters"))
    }

    @Test(arguments: [("zh-Hans", "zh-Hans"), ("zh-hans", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("zh-CN", "zh-Hans"),
                      ("zh", "zh-Hans"), ("en-GB", "en"), ("EN", "en")])
    func localesMatchByExactPrefixOrLanguage(requested: String, used: String) {
        #expect(MessageCatalog.matching(requested)?.locale == used)
    }

    @Test func anUnknownLocaleHasNoCatalog() {
        #expect(MessageCatalog.matching("fr") == nil)
        #expect(MessageCatalog.matching("") == nil)
    }

    @Test func aFormsOwnTranslationsWinOverTheCatalog() throws {
        var definition = FormDefinition.signup
        definition.translations = ["zh-Hans": ["password.tooShort": "密码太短（至少 {min} 位）"]]
        let scheduler = VirtualTimeScheduler()
        let form = FormPipeline(definition: definition, services: FormServices(directory: ScriptedDirectory(scheduler: scheduler)),
                                scheduler: scheduler, debounce: .zero, catalog: .simplifiedChinese)
        try form.edit("password", to: "abc")
        #expect(form.snapshot.fields[1].result.message == "密码太短（至少 5 位）")
    }
}
