import SignupCore
import SignupProtocol
import SignupServer

/// The secret field an edit of a form of one kind names, by the field's name, resolved as
/// `Server.secretField(_:inForm:kind:)` resolves it: the kind's own field when it has one of that
/// name (none when that one is not secret), otherwise the first secret field of that name among
/// every kind's. Made once per kind on the loop; read by the encoder's thread.
package final class SecretFieldsOfKind: Sendable {
    package let kind: String
    /// By the position of its name in the `secretNames` the kind was made with.
    private let fields: [SecretField?]

    /// `secretNames`: every name any kind gives a secret field.
    package init(_ definition: FormDefinition, secretFieldsOfAnyKind: [String: SecretField], secretNames: [String]) {
        kind = definition.kind
        var fields = secretFieldsOfAnyKind
        for field in definition.fields {
            fields[field.name] = field.isSecret ? SecretField(field, isAskedAbout: definition.asksBackendAbout(field)) : nil
        }
        self.fields = secretNames.map { fields[$0] }
    }

    /// The secret field with the name at `position` in `secretNames`, nil when an edit of it holds no secret.
    func secretField(at position: Int) -> SecretField? {
        fields[position]
    }

    /// Each secret field name's first secret field among `definitions`.
    static func secretFieldsOfAnyKind(_ definitions: [FormDefinition]) -> [String: SecretField] {
        var fields: [String: SecretField] = [:]
        let askedAbout = SecretRedaction.namesAskedAbout(in: definitions)
        for field in definitions.lazy.flatMap(\.fields) where field.isSecret && fields[field.name] == nil {
            fields[field.name] = SecretField(field, isAskedAbout: askedAbout.contains(field.name))
        }
        return fields
    }
}
