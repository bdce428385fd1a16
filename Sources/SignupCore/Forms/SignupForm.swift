extension FormDefinition {
    /// The sign-up screen of RxSwift's GitHubSignup sample: its rules and its messages, declared.
    /// Beside `GithubSignupViewModel1`:
    ///
    /// | view model | declaration |
    /// |---|---|
    /// | `validatedUsername = username.flatMapLatest { validationService.validateUsername($0) }` | `username`: its rule, then `remoteCheck` (latest only; `FormEffect.check`) |
    /// | `validateUsername`: empty, invalid characters, `validating`, then the API's answer | `emptyMessage`, the `allowedCharacters` rule, `RemoteCheck.validating`, `passed`/`rejected`/`unavailable` |
    /// | `validatedPassword = password.map { validatePassword($0) }` (at least 5 characters) | `password`: the `minLength(5)` rule |
    /// | `validatedPasswordRepeated = combineLatest(password, repeatedPassword, resultSelector: validateRepeatedPassword)` | `repeatedPassword`: the `equalsField("password")` rule, judged again when `password` changes |
    /// | `signupEnabled = combineLatest(the three, signingIn) { all valid && !signingIn }` | submit is enabled when every field is `ok` and no submission runs (`FormState.submitEnabled`) |
    /// | `signedIn = signupTaps.withLatestFrom(usernameAndPassword).flatMapLatest { API.signup }` | `submit`: `registerAccount(usernameField:passwordField:)`, on the values at the tap, one at a time |
    ///
    /// The sample has no debounce; the server adds one (`--debounce-ms`, default 300 ms).
    public static let signup: FormDefinition = {
        let username = FieldDefinition(
            name: "username",
            rules: [
                Rule(.allowedCharacters(.alphanumerics),
                     failure: Message("username.invalidCharacters", "Username can only contain numbers or digits")),
            ],
            remoteCheck: RemoteCheck(
                kind: .usernameAvailability,
                validating: Message("username.checking", "Checking availability..."),
                passed: Message("username.available", "Username available"),
                rejected: Message("username.taken", "Username already taken"),
                unavailable: Message("backend.unavailable", "Error contacting server")
            ),
            label: Message("username.label", "Username"),
            placeholder: Message("signup.username.placeholder", "Letters and digits"),
            input: .username
        )
        let password = FieldDefinition(
            name: "password",
            rules: [Rule(.minLength(5), failure: Message("password.tooShort", "Password must be at least {min} characters"))],
            successMessage: Message("password.acceptable", "Password acceptable"),
            isSecret: true,
            label: Message("password.label", "Password"),
            placeholder: Message("signup.password.placeholder", "At least 5 characters"),
            input: .newPassword
        )
        let repeatedPassword = FieldDefinition.repeatedPassword()
        let submit = SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password"))
        // The definition is a constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "signup", title: Message("signup.title", "Sign up"), fields: [username, password, repeatedPassword], submit: submit, compilingPatterns: false)
    }()
}
