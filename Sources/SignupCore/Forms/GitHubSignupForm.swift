extension FormDefinition {
    /// Names no one may register: routes and roles a site keeps for itself. A custom form can
    /// carry a longer list in its own `notOneOf` rule.
    public static let reservedUsernames = [
        "about", "admin", "administrator", "api", "help", "login", "logout", "null", "root",
        "security", "settings", "signup", "support", "system", "www",
    ]

    /// Sign-up with real-world rules, as GitHub has them: usernames of 1–39 ASCII letters, digits
    /// and single inner hyphens, not reserved, unique case-insensitively; passwords of at least 15
    /// characters, or at least 8 with a digit and a lowercase letter, at most 256 and never
    /// truncated; every value NFKC-normalised before it is compared or hashed.
    public static let githubSignup: FormDefinition = {
        let username = FieldDefinition(
            name: "username",
            rules: [
                Rule(.maxLength(39), failure: Message("username.tooLong", "Username is too long (maximum is {max} characters)")),
                Rule(.pattern("[A-Za-z0-9]+(-[A-Za-z0-9]+)*"), failure: Message(
                    "username.invalidFormat",
                    "Username may only contain alphanumeric characters or single hyphens, and cannot begin or end with a hyphen")),
                Rule(.notOneOf(reservedUsernames), failure: Message("username.reserved", "Username is reserved")),
            ],
            remoteCheck: RemoteCheck(
                kind: .usernameAvailability,
                validating: Message("username.checking", "Checking availability..."),
                passed: Message("username.available", "Username available"),
                rejected: Message("username.taken", "Username already taken"),
                unavailable: Message("backend.unavailable", "Error contacting server")),
            normalization: .nfkc,
            label: Message("username.label", "Username"),
            placeholder: Message("signup-github.username.placeholder", "Letters, digits and single hyphens"),
            input: .username)
        let password = FieldDefinition(
            name: "password",
            rules: [
                Rule(.maxLength(256), failure: Message("password.tooLong", "Password is too long (maximum is {max} characters)")),
                Rule(.anyOf([
                    [.minLength(15)],
                    [.minLength(8), .pattern("(?s).*[0-9].*"), .pattern("(?s).*[a-z].*")],
                ]), failure: Message(
                    "password.tooWeak",
                    "Password needs at least 15 characters, or at least 8 including a number and a lowercase letter")),
            ],
            successMessage: Message("password.acceptable", "Password acceptable"),
            isSecret: true,
            normalization: .nfkc,
            label: Message("password.label", "Password"),
            placeholder: Message(
                "signup-github.password.placeholder", "15 or more characters, or 8 with a number and a lowercase letter"),
            input: .newPassword)
        let repeatedPassword = FieldDefinition.repeatedPassword(normalization: .nfkc)
        // A constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "signup-github", title: Message("signup-github.title", "Create your account"), fields: [username, password, repeatedPassword], submit: signup.submit, compilingPatterns: false)
    }()
}
