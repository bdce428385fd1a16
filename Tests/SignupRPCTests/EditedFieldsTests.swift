import SignupCore
import Testing
@testable import SignupProtocol
@testable import SignupServer
@testable import SignupTools

/// How the recording's encoder judges a kept edit line's value (`EditedFields`): by the field's
/// name and the kind of its form, as the server judged it when the edit came.
@Suite struct EditedFieldsTests {
    private static let definitions = FormCatalog.builtIn.definitions

    private static func fields() -> EditedFields {
        let secretNames = Set(definitions.flatMap { $0.fields.filter(\.isSecret).map(\.name) }).sorted()
        let anyKind = SecretFieldsOfKind.secretFieldsOfAnyKind(definitions)
        let unopened = SecretFieldsOfKind(.signup, secretFieldsOfAnyKind: anyKind, secretNames: secretNames)
        let edited = EditedFields(unopenedForm: unopened, secretNames: secretNames,
                                  fieldNames: definitions.flatMap { $0.fields.map(\.name) },
                                  redaction: SecretRedaction(forms: definitions))
        edited.set(SecretFieldsOfKind(.friend, secretFieldsOfAnyKind: anyKind, secretNames: secretNames), ofForm: "pal")
        edited.set(SecretFieldsOfKind(.login, secretFieldsOfAnyKind: anyKind, secretNames: secretNames), ofForm: "in")
        return edited
    }

    /// What an edit of `field` in `form` (the default form when nil) is, as text.
    private static func judge(_ fields: EditedFields, _ field: String, in form: String?) -> String {
        let value = Array(field.utf8).withUnsafeBytes { name in
            if let form {
                Array(form.utf8).withUnsafeBytes { fields.value(ofField: name, inForm: $0, hash: FormIDHash.process(form)) }
            } else {
                fields.value(ofField: name, inForm: nil, hash: 0)
            }
        }
        return switch value {
        case .secret(let secret): "secret \(secret.definition.name)"
        case .masked: "masked"
        case .kept: "kept"
        }
    }

    @Test func judgesByFieldNameAndTheKindOfTheForm() {
        let fields = Self.fields()
        let judged = [("password", "in"), ("username", "in"), ("phone", "pal"), ("password", "pal"),
                      ("repeatedPassword", nil), ("username", nil), ("password", "closed"),
                      ("newPassword", "in"), ("nickname", "in"), ("", "in")]
            .map { Self.judge(fields, $0.0, in: $0.1) }
        #expect(judged == [
            "secret password", "kept", "kept",
            // A kind without the field: the first secret field of that name among every kind's.
            "secret password",
            // The default form, and a form not open, are judged as the sign-up form an edit opens.
            "secret repeatedPassword", "kept", "secret password",
            // A field no kind has, whatever its name: masked, since no type says what it holds.
            "masked", "masked", "masked",
        ])
    }

    @Test func aClosedFormIsJudgedAsOneNotOpen() {
        let fields = Self.fields()
        fields.set(nil, ofForm: "in")
        #expect(Self.judge(fields, "password", in: "in") == "secret password")
        #expect(Self.judge(fields, "username", in: "in") == "kept")
    }
}
