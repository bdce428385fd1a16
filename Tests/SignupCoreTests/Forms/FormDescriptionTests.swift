import Testing
@testable import SignupCore

/// What a generic frontend draws a form from: every text in the form's locale, the fields in
/// order, and the submission's states and failures as the form names them.
@Suite struct FormDescriptionTests {
    private typealias Field = FormDescription.Field
    private typealias State = FormDescription.State
    private typealias Outcome = FormDescription.Outcome

    @Test func signupInEnglish() {
        let description = LocalizedForm(definition: .signup).formDescription
        #expect(description == FormDescription(
            kind: "signup", locale: "en", title: "Sign up",
            fields: [
                Field(name: "username", label: "Username", placeholder: "Letters and digits", input: .username,
                      isRequired: true, isSecret: false, maxLength: nil, remoteChecks: [.init(name: "usernameAvailability", kind: "usernameAvailability")], requirements: []),
                Field(name: "password", label: "Password", placeholder: "At least 5 characters", input: .newPassword,
                      isRequired: true, isSecret: true, maxLength: nil, remoteChecks: [], requirements: []),
                Field(name: "repeatedPassword", label: "Repeat password", placeholder: "The same password again",
                      input: .newPassword, isRequired: true, isSecret: true, maxLength: nil, remoteChecks: [], requirements: []),
            ],
            submitLabel: "Sign up", resultName: "account",
            states: [
                State(name: "idle", meaning: "idle", text: "Not signed up yet"),
                State(name: "submitting", meaning: "submitting", text: "Signing up..."),
                State(name: "succeeded", meaning: "succeeded", text: "Signed up"),
                State(name: "failed", meaning: "failed", text: "Not signed up"),
            ],
            failures: [
                Outcome(code: "username.taken", message: "Username already taken"),
                Outcome(code: "signup.failed", message: "Sign-up failed, please try again"),
                Outcome(code: "backend.unavailable", message: "Error contacting server"),
            ]))
    }

    @Test func loginInChineseNamesItsStatesAsTheReSwiftLoginDoes() {
        let description = LocalizedForm(definition: .login, catalog: .simplifiedChinese).formDescription
        #expect(description.title == "登录")
        #expect(description.fields.map(\.label) == ["用户名", "密码"])
        #expect(description.fields.map(\.placeholder) == [nil, nil])
        #expect(description.fields.map(\.input) == [.username, .password])
        #expect(description.submitLabel == "登录")
        #expect(description.states == [
            State(name: "loggedOut", meaning: "idle", text: "未登录"),
            State(name: "loggingIn", meaning: "submitting", text: "正在登录…"),
            State(name: "loggedIn", meaning: "succeeded", text: "已登录"),
            State(name: "loginFailed", meaning: "failed", text: "登录失败"),
        ])
        #expect(description.failures == [
            Outcome(code: "login.wrongCredentials", message: "用户名或密码错误"),
            Outcome(code: "login.rateLimited", message: "尝试次数过多，请一分钟后再试"),
            Outcome(code: "backend.unavailable", message: "连接服务器出错"),
        ])
    }

    @Test func maximumLengthsComeFromTheTightestMaxLengthRule() {
        let github = LocalizedForm(definition: .githubSignup).formDescription
        #expect(github.fields.map(\.maxLength) == [39, 256, nil])
        let friend = LocalizedForm(definition: .friend).formDescription
        #expect(friend.fields.map(\.maxLength) == [100, 100, nil])
        #expect(friend.fields.map(\.input) == [.name, .name, .phone])
        #expect(friend.resultName == "friend")
        #expect(friend.states.map(\.text) == ["Not saved yet", "Saving...", "Saved", "Not saved"])
        let twoBounds = FieldDefinition(name: "code", rules: [
            Rule(.maxLength(12), failure: Message("a", "")), Rule(.maxLength(8), failure: Message("b", "")),
        ])
        #expect(twoBounds.maxLength == 8)
    }

    @Test func aDefinitionWithoutPresentationGetsItsNamesInWordsAndTheFormsOwnTranslations() throws {
        let definition = try FormDefinition(
            kind: "team-invite",
            fields: [FieldDefinition(name: "emailAddress"), FieldDefinition(name: "accessCode", isSecret: true)],
            submit: SubmitAction(kind: .registerAccount(usernameField: "emailAddress", passwordField: "accessCode")),
            translations: ["zh-Hans": ["title": "团队邀请", "emailAddress.label": "邮箱"]])
        let english = LocalizedForm(definition: definition).formDescription
        #expect(english.title == "Team invite")
        #expect(english.fields.map(\.label) == ["Email address", "Access code"])
        #expect(english.fields.map(\.input) == [.text, .password])
        let chinese = LocalizedForm(definition: definition, catalog: .simplifiedChinese).formDescription
        #expect(chinese.title == "团队邀请")
        #expect(chinese.fields.map(\.label) == ["邮箱", "Access code"])
        #expect(chinese.submitLabel == "注册")
    }

    @Test func namesBecomeWords() {
        #expect(FieldDefinition.words(of: "repeatedPassword") == "Repeated password")
        #expect(FieldDefinition.words(of: "phone-signup") == "Phone signup")
        #expect(FieldDefinition.words(of: "straße") == "Straße")
        #expect(FieldDefinition.words(of: "ßig") == "SSig")
    }
}
