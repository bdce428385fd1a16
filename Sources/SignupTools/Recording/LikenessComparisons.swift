import SignupCore
import SignupProtocol
import SignupServer

/// Which plain edits hold a secret that its field's rules compare with other fields by how alike
/// they are (`signup-secure`'s password beside its username), and what those fields hold as the
/// edit comes: its placeholder is judged beside them (`EncodingContext.comparedValues`). While no
/// form of such a kind is open, an edit costs a look at an empty set; then, edits of any other
/// field a look at its name. Used on the loop only. A class, held by a constant, so that asking
/// about each edit copies nothing (as a struct, each question retained and released its members).
final class LikenessComparisons {
    /// Names of secret fields whose rules, in some kind, compare them with others by likeness.
    private let secretNames: [String]
    /// Open forms of a kind that has such a field.
    private var forms: Set<String> = []
    /// What the form `form` (with `hash`) holds of the fields its field `field` is compared with;
    /// set once the server is made.
    var values: (_ form: String?, _ hash: UInt64?, _ field: String) -> [String: String]? = { _, _, _ in nil }

    init(_ definitions: [FormDefinition]) {
        secretNames = Array(Set(definitions.flatMap(\.fields).filter(Self.isComparedByLikeness).map(\.name)))
    }

    /// The form `id` opened as a form of `definition`'s kind, or closed (nil).
    func formDidChange(_ id: String, _ definition: FormDefinition?) {
        // Changed moved out, so that no access to `forms` spans a call: every keystroke reads it,
        // and the compiler then checks those reads, not the run time.
        var changed: Set<String> = []
        swap(&changed, &forms)
        if definition?.fields.contains(where: Self.isComparedByLikeness) == true {
            changed.insert(id)
        } else if !changed.isEmpty {
            changed.remove(id)
        }
        swap(&changed, &forms)
    }

    /// What `edit`'s value is compared with by likeness; nil when it is compared with nothing.
    func valuesCompared(with edit: borrowing FormEditLine) -> [String: String]? {
        guard !forms.isEmpty, secretNames.contains(edit.field), forms.contains(edit.form ?? Server.defaultFormID) else { return nil }
        return values(edit.form, edit.formHash, edit.field)
    }

    private static func isComparedByLikeness(_ field: FieldDefinition) -> Bool {
        field.isSecret && field.rules.contains { !$0.check.fieldsComparedByLikeness.isEmpty }
    }
}
