import SignupCore

extension FormDefinition {
    /// Whether the form sends `field`'s value to its backend as a name: to a remote check (its
    /// own or one that reads it), as the account's name when it submits, or to its own API.
    package func asksBackendAbout(_ field: FieldDefinition) -> Bool {
        if case .http = submit.kind { return true }  // every field is sent, and an answer may echo any
        return field.remoteChecks.contains(where: \.mayEchoItsValue) || field.name == submit.usernameField
            || fields.contains { $0.remoteChecks.contains { $0.reads.contains(field.name) } }
    }
}

extension RemoteCheck {
    /// Whether a backend's answer may carry the value back in its own words: a breached-password
    /// check's answer is a count, and a unique check's is the form's own message.
    var mayEchoItsValue: Bool { kind.type.mayEchoItsValue }
}

extension SubmitAction {
    /// The field whose value a submission sends as the account's name, when it sends one.
    fileprivate var usernameField: String? {
        switch kind {
        case .registerAccount(let field, _), .logIn(let field, _): field
        case .saveFriend, .http: nil
        }
    }
}
