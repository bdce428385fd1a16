extension FormDefinition {
    /// Logging in against the directory that sign-up writes, as the ReSwift login has it: the
    /// submission goes `loggedOut` → `loggingIn` → `loggedIn` (with a token) or `loginFailed`.
    /// Wrong credentials answer alike whether the user exists or not; five failures for a name
    /// within a minute make further attempts fail with `login.rateLimited` until it has passed.
    public static let login: FormDefinition = {
        let username = FieldDefinition(
            name: "username", normalization: .nfkc, label: Message("username.label", "Username"), input: .username)
        let password = FieldDefinition(
            name: "password", isSecret: true, normalization: .nfkc, label: Message("password.label", "Password"), input: .password)
        let submit = SubmitAction(kind: .logIn(usernameField: "username", passwordField: "password"), stateNames: .login)
        // A constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "login", title: Message("login.title", "Log in"), fields: [username, password], submit: submit, compilingPatterns: false)
    }()
}
