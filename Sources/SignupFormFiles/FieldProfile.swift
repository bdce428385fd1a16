import SignupCore
import SignupProtocol

/// What a schema's property may ask of SignupRPC beyond its keywords (`signupRPC.profile`), and
/// the positive wording of its rules for a checklist (`signupRPC.checklist`):
/// - `nistPassword` (a `writeOnly` field): `signup-secure`'s password, NIST SP 800-63B rev. 4:
///   15 to 128 code points after NFKC, not common, repetitive, sequential, built on a dictionary
///   word, nor like the form's `username` or `email` field (where it has one), nor breached; a
///   checklist. It replaces the field's rules; the schema's own keywords still hold at a tap.
/// - `username`: `signup-secure`'s username: PRECIS-mapped, the IdentifierClass, one script, and
///   available with its look-alikes (`usernameAvailability`) unless the field declares checks.
enum FieldProfile {
    static func apply(_ profile: JSON, to field: inout FieldDefinition, path: String, reader: FormFile.Reader) throws(FormFile.Problem) {
        let secure = FormDefinition.secureSignup
        switch profile.string {
        case "nistPassword":
            guard field.isSecret else { throw reader.fail(path, "nistPassword is for a writeOnly field") }
            let password = secure.fields.first { $0.name == "password" }!
            field.rules = password.rules
            field.normalization = .nfkc
            if field.remoteChecks.isEmpty { field.remoteChecks = password.remoteChecks }
        case "username":
            guard !field.isSecret else { throw reader.fail(path, "username is not for a writeOnly field") }
            let username = secure.fields.first { $0.name == "username" }!
            field.rules += username.rules.filter { rule in
                if case .maxLength = rule.check { return false }
                return true
            }.map { Rule($0.check, failure: $0.failure) }
            field.normalization = .usernameCaseMapped
            field.input = .username
            if field.remoteChecks.isEmpty { field.remoteChecks = username.remoteChecks }
        default:
            throw reader.fail(path, "must be \"nistPassword\" or \"username\"")
        }
    }

    /// The positive wording of a rule by its code, for a checklist (`{param}`s as the failure's).
    static func requirement(for code: String) -> Message {
        let text = switch code {
        case "string.minLength": "At least {min} characters"
        case "string.maxLength": "At most {max} characters"
        case "string.pattern": "In the expected form"
        case "string.format.email": "An e-mail address"
        case "enum": "One of the listed values"
        case "const": "The given value"
        case "boolean.type": "True or false"
        case "integer.type": "A whole number"
        case "number.type": "A number"
        case "number.minimum": "At least {min}"
        case "number.exclusiveMinimum": "More than {min}"
        case "number.maximum": "At most {max}"
        case "number.exclusiveMaximum": "Less than {max}"
        case "number.multipleOf": "A multiple of {multipleOf}"
        case "username.notIdentifier": "Letters, digits and punctuation, no spaces"
        case "username.mixedScripts": "One alphabet (Latin may join Chinese, Japanese or Korean)"
        default: code.hasPrefix("string.format.") ? "A valid " + code.dropFirst("string.format.".count) : "Met"
        }
        return Message(code + ".requirement", text)
    }
}
