import Foundation

extension FormDefinition {
    /// Sign-up as a product must do it today: a PRECIS username whose look-alikes are taken too,
    /// a unique e-mail address, and a password held to NIST SP 800-63B rev. 4 (§3.1.1.2): at least
    /// 15 code points after NFKC, at most 128, not common, repetitive, sequential, built on a
    /// dictionary word, like the username or the e-mail address, nor seen in a breach. Every rule
    /// of the username and the password is a checklist item that ticks as the person types.
    ///
    /// The common-password list is `PasswordList.common`; the breach check asks Pwned Passwords,
    /// or `$SIGNUP_PWNED_PASSWORDS_URL` (a mirror, or a test's server), and passes when it cannot.
    public static let secureSignup: FormDefinition = {
        func rule(_ check: Rule.Check, _ code: String, _ failure: String, _ requirement: String) -> Rule {
            Rule(check, failure: Message(code, failure), requirement: Message(code + ".requirement", requirement))
        }
        let username = FieldDefinition(
            name: "username",
            rules: [
                rule(.maxLength(32), "username.tooLong", "Username can have at most {max} characters", "At most {max} characters"),
                rule(.allowedCharacters(.precisIdentifier), "username.notIdentifier",
                     "Use letters, digits and punctuation, without spaces", "Letters, digits and punctuation, no spaces"),
                rule(.scriptRestriction(.highlyRestrictive), "username.mixedScripts",
                     "Don't mix alphabets that look alike, such as Latin and Cyrillic", "One alphabet (Latin may join Chinese, Japanese or Korean)"),
            ],
            remoteCheck: RemoteCheck(
                kind: .usernameAvailability,
                validating: Message("username.checking", "Checking availability..."),
                passed: Message("username.available", "Username available"),
                rejected: Message("username.takenOrAlike", "Taken, or too like a name that is"),
                unavailable: Message("backend.unavailable", "Error contacting server")),
            normalization: .usernameCaseMapped,
            label: Message("username.label", "Username"),
            placeholder: Message("signup-secure.username.placeholder", "Letters and digits, in one alphabet"),
            input: .username)
        let email = FieldDefinition(
            name: "email",
            rules: [Rule(.emailAddress, failure: Message("email.invalid", "Enter an e-mail address such as ann@example.com"))],
            remoteCheck: RemoteCheck(
                kind: .unique,
                validating: Message("email.checking", "Checking the address..."),
                passed: Message("email.free", "Address not yet registered"),
                rejected: Message("email.taken", "This address is already registered"),
                unavailable: Message("backend.unavailable", "Error contacting server")),
            normalization: .nfkc,
            label: Message("email.label", "E-mail"),
            placeholder: Message("email.placeholder", "ann@example.com"),
            input: .email)
        let password = FieldDefinition(
            name: "password",
            rules: [
                rule(.minCodePoints(FormDefinition.passwordMinimum.alone), "password.tooShort",
                     "Password must be at least {min} characters", "At least {min} characters"),
                rule(.maxCodePoints(128), "password.tooLong", "Password can have at most {max} characters", "At most {max} characters"),
                rule(.notCommonPassword(.common), "password.common",
                     "This is one of the {count} most common passwords", "Not a common password"),
                rule(.notRepetitiveOrSequential, "password.pattern",
                     "Repeats and sequences (aaaa, 1234, qwerty) are easy to guess", "Not a repeat or a sequence"),
                rule(.notSimilarTo("username"), "password.likeUsername", "Too similar to your username", "Not like your username"),
                rule(.notSimilarTo("email"), "password.likeEmail", "Too similar to your e-mail address", "Not like your e-mail address"),
                rule(.notDictionaryWord, "password.dictionaryWord",
                     "Built on a dictionary word; add words of your own", "Not built on a dictionary word"),
            ],
            remoteCheck: RemoteCheck(
                kind: .breachedPassword(BreachedPasswordCheck(
                    baseURL: ProcessInfo.processInfo.environment["SIGNUP_PWNED_PASSWORDS_URL"] ?? BreachedPasswordCheck.pwnedPasswords)),
                validating: Message("password.checkingBreaches", "Checking known breaches..."),
                passed: Message("password.acceptable", "Password acceptable"),
                rejected: Message("password.breached", "This password appeared in {count} data breaches; choose another"),
                unavailable: Message("backend.unavailable", "Error contacting server")),
            isSecret: true,
            normalization: .nfkc,
            label: Message("password.label", "Password"),
            placeholder: Message("signup-secure.password.placeholder", "At least 15 characters; a few words work well"),
            input: .newPassword)
        let repeatedPassword = FieldDefinition.repeatedPassword(normalization: .nfkc)
        let submit = SubmitAction(kind: .registerAccount(usernameField: "username", passwordField: "password"))
        // The definition is a constant written above; failing to build it is a programming error.
        return try! FormDefinition(
            kind: "signup-secure", title: Message("signup-secure.title", "Create your account"),
            fields: [username, email, password, repeatedPassword], submit: submit, compilingPatterns: false)
    }()
}
