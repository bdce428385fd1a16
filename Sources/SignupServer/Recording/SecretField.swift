import SignupCore

/// A secret field as its placeholders are made: normalised, then judged by its rules (compiled once).
final class SecretField: Sendable {
    let definition: FieldDefinition
    let rules: SecretPlaceholders.Rules
    private let isNormalized: Bool

    init(_ definition: FieldDefinition) {
        self.definition = definition
        isNormalized = definition.normalization != .none
        rules = SecretPlaceholders.Rules(definition.rules)
    }

    /// The value as the field's rules see it.
    func normalized(_ value: String) -> String {
        isNormalized ? definition.normalized(value) : value
    }
}
