import SignupProtocol
import SignupServer

/// What the value of a kept edit line is, judged on the encoder's queue as the server judged it
/// when the edit came: by its field's name and the kind of its form (as the recorder told the
/// encoder, `EncodingContext.formKind`). A class, so that a record's writer consults it where it
/// is rather than through a copy of its tables; used on the encoder's queue only.
final class EditedFields {
    /// What an edit's value is.
    enum Value {
        /// A secret of this field, replaced by its placeholder.
        case secret(SecretField)
        /// A field no kind has: masked, since no type says what it holds.
        case masked
        /// Written as it came.
        case kept
    }

    /// The kind of each open form.
    private var forms = OpenFormKinds()
    /// The form an edit without one names, hashed once rather than for each such edit.
    private let defaultForm = (id: Array(Server.defaultFormID.utf8), hash: FormIDHash.process(Server.defaultFormID))
    /// The kind an edit of a form not open is judged by: the default form's, which it opens.
    private let unopenedForm: SecretFieldsOfKind
    /// Every secret field's name, as UTF-8, in the order `SecretFieldsOfKind` numbers them.
    private let secretNames: [[UInt8]]
    /// Every field name any kind has, the secret ones first in `secretNames`' order, so that one
    /// pass finds an edit's field by its bytes.
    private let fieldNames: KnownFieldNames
    private let redaction: SecretRedaction

    init(unopenedForm: SecretFieldsOfKind, secretNames: [String], fieldNames: [String], redaction: SecretRedaction) {
        self.unopenedForm = unopenedForm
        self.secretNames = secretNames.map { Array($0.utf8) }
        self.fieldNames = KnownFieldNames(secretNames + fieldNames)
        self.redaction = redaction
    }

    /// The form `id` is open as a form of `kind`, or closed (nil).
    func set(_ kind: SecretFieldsOfKind?, ofForm id: String) {
        // Changed moved out, so that no access to `forms` spans a call: the compiler then checks
        // the reads every secret keystroke makes, not the run time.
        var changed = OpenFormKinds()
        swap(&changed, &forms)
        changed.set(kind, ofForm: id)
        swap(&changed, &forms)
    }

    /// What the value of `field` in the form `form` (with `hash`; the default form when nil) is.
    func value(ofField field: UnsafeRawBufferPointer, inForm form: UnsafeRawBufferPointer?, hash: UInt64) -> Value {
        let position = fieldNames.position(spelledBy: field)
        if let position, position >= secretNames.count { return .kept }
        // A field past the names the table holds, or one no kind has, is looked for name by name.
        guard let secret = position ?? secretNames.firstIndex(where: { $0.withUnsafeBytes { $0.hasSameBytes(as: field) } }) else {
            return redaction.isField(named: String(decoding: field, as: UTF8.self)) ? .kept : .masked
        }
        let kind = if let form {
            forms.kind(ofForm: form, hash: hash)
        } else {
            defaultForm.id.withUnsafeBytes { forms.kind(ofForm: $0, hash: defaultForm.hash) }
        }
        return (kind ?? unopenedForm).secretField(at: secret).map(Value.secret) ?? .kept
    }
}
