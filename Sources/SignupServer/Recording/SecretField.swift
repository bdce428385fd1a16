import SignupCore
import SignupProtocol

/// A secret field as its placeholders are made: normalised, then judged by its rules (compiled once).
final class SecretField: Sendable {
    let definition: FieldDefinition
    let rules: SecretPlaceholders.Rules
    /// Whether its value is also asked about as a name (a remote check, a submission's username),
    /// so that questions, answers and messages out may carry it.
    let isAskedAbout: Bool
    private let isNormalized: Bool

    init(_ definition: FieldDefinition, isAskedAbout: Bool) {
        self.definition = definition
        self.isAskedAbout = isAskedAbout
        isNormalized = definition.normalization != .none
        rules = SecretPlaceholders.Rules(definition.rules)
    }

    /// The names of fields whose value some kind of `definitions` asks its backend about as a name.
    static func namesAskedAbout(in definitions: [FormDefinition]) -> Set<String> {
        Set(definitions.flatMap { definition in definition.fields.filter(definition.asksBackendAbout).map(\.name) })
    }

    /// The value as the field's rules see it.
    func normalized(_ value: String) -> String {
        isNormalized ? definition.normalized(value) : value
    }
}

extension FormDefinition {
    /// Whether the form sends `field`'s value to its backend as a name: to a remote check (its
    /// own or one that reads it), as the account's name when it submits, or to its own API.
    func asksBackendAbout(_ field: FieldDefinition) -> Bool {
        if case .http = submit.kind { return true }  // every field is sent, and an answer may echo any
        return field.remoteChecks.contains(where: \.mayEchoItsValue) || field.name == submit.usernameField
            || fields.contains { $0.remoteChecks.contains { $0.reads.contains(field.name) } }
    }
}

extension RemoteCheck {
    /// Whether a backend's answer may carry the value back in its own words: a breached-password
    /// check's answer is a count, and a unique check's is the form's own message.
    var mayEchoItsValue: Bool {
        switch kind {
        case .usernameAvailability, .http: true
        case .unique, .breachedPassword: false
        }
    }
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
