extension FormDefinition {
    /// The sign-up screen of RxSwift's GitHubSignup sample: its rules and its messages.
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
        let repeatedPassword = FieldDefinition(
            name: "repeatedPassword",
            rules: [Rule(.equalsField("password"), failure: Message("repeatedPassword.different", "Password different"))],
            successMessage: Message("repeatedPassword.matches", "Password repeated"),
            isSecret: true,
            label: Message("repeatedPassword.label", "Repeat password"),
            placeholder: Message("repeatedPassword.placeholder", "The same password again"),
            input: .newPassword
        )
        let submit = SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password"))
        // The definition is a constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "signup", title: Message("signup.title", "Sign up"), fields: [username, password, repeatedPassword], submit: submit, compilingPatterns: false)
    }()
}
