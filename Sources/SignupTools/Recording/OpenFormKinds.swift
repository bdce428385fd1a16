import SignupProtocol
import SignupServer

/// The kind of each open form, as the recorder tells the encoder (`EncodingContext.formKind`),
/// found for an edit by the hash of its form's id that the edit carries (`FormIDHash.process`,
/// computed where the line was read), so that most edits look up neither a string nor its hash.
/// An id whose hash another open id already has is kept apart, by its id.
struct OpenFormKinds {
    private struct OpenForm {
        let id: String
        let kind: SecretFieldsOfKind
    }

    private var forms: [UInt64: OpenForm] = [:]
    private var sharingHash: [String: SecretFieldsOfKind] = [:]
    private let hash: (String) -> UInt64

    init(hash: @escaping (String) -> UInt64 = FormIDHash.process) {
        self.hash = hash
    }

    /// The form `id` is open as a form of `kind`, or closed (nil).
    mutating func set(_ kind: SecretFieldsOfKind?, ofForm id: String) {
        let hash = hash(id)
        if forms[hash]?.id == id { forms[hash] = nil }
        sharingHash[id] = nil
        guard let kind else { return }
        if forms[hash] == nil {
            forms[hash] = OpenForm(id: id, kind: kind)
        } else {
            sharingHash[id] = kind
        }
    }

    /// The kind of the form whose id is `id` (UTF-8) and hashes to `hash`; nil when it is not open.
    func kind(ofForm id: UnsafeRawBufferPointer, hash: UInt64) -> SecretFieldsOfKind? {
        if let open = forms[hash], open.id.utf8.withContiguousStorageIfAvailable({ UnsafeRawBufferPointer($0).hasSameBytes(as: id) }) == true {
            return open.kind
        }
        return sharingHash.isEmpty ? nil : sharingHash[String(decoding: id, as: UTF8.self)]
    }
}
