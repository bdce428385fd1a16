import SignupCore
import SignupServer

/// A secret field as its placeholders are made: normalised, then judged by its rules (compiled once).
package final class SecretField: Sendable {
    package let definition: FieldDefinition
    package let rules: SecretPlaceholders.Rules
    /// Whether its value is also asked about as a name (a remote check, a submission's username),
    /// so that questions, answers and messages out may carry it.
    let isAskedAbout: Bool
    private let isNormalized: Bool

    package init(_ definition: FieldDefinition, isAskedAbout: Bool) {
        self.definition = definition
        self.isAskedAbout = isAskedAbout
        isNormalized = definition.normalization != .none
        rules = SecretPlaceholders.Rules(definition.rules)
    }

    /// The value as the field's rules see it.
    func normalized(_ value: String) -> String {
        isNormalized ? definition.normalized(value) : value
    }
}
