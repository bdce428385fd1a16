/// A `form.edit` request decoded from its line through `JSONReader` straight into its types,
/// without building a `JSON` tree: the message a client sends on every keystroke.
///
/// Only the plain shape is read here: one object with `jsonrpc`, `method`, `params` and an
/// optional `id`, in any order and each once; `params` a flat object of `form`, `field`, `value`
/// and `at`, with `field` and `value` present; strings without escapes; whole numbers in plain
/// digits. Any other line, including every malformed one, gets nil and goes to the full parser,
/// so the two paths accept, refuse and answer every line alike.
package struct FormEditLine: Sendable {
    package let id: RequestID?
    /// The request, as the server meets every `form.edit` however it was read.
    package let request: FormEditRequest

    package init(id: RequestID?, form: String?, field: String, value: String, at: Int64?) {
        self.id = id
        request = FormEditRequest(form: form, field: field, value: value, at: at)
    }

    package var form: String? { request.form }
    package var formHash: UInt64? { request.formHash }
    package var field: String { request.field }
    package var value: String { request.value }
    package var at: Int64? { request.at }

    /// The request on `line`, or nil when the line is not of the plain shape or `maxDepth` (as
    /// the full parser counts it) does not allow a request with params. A field named as one of
    /// `fieldNames` gets that string.
    package static func read(_ line: UnsafeBufferPointer<UInt8>, maxDepth: Int, fieldNames: KnownFieldNames = KnownFieldNames()) -> FormEditLine? {
        decode(line, maxDepth: maxDepth, fieldNames: fieldNames)?.edit
    }

    /// Where a request's strings lie in its line, as offsets: `form`'s and `field`'s text, and
    /// `value` with its quotes.
    package struct Parts {
        package var form: Range<Int>?
        package var field = 0..<0
        package var value = 0..<0
    }
}
