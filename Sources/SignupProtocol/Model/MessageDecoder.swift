/// One unit of input for the server.
package enum InputItem: Sendable {
    /// A complete line without its `\n` (and without a `\r` before it).
    case line([UInt8])
    /// A complete line that was a `form.edit` request of the plain shape, already read.
    case edit(FormEditLine)
    /// A line longer than the limit; its bytes were skipped, never buffered.
    case oversizeLine
}

/// What the connection hands each complete message to, on its reading thread: the codec's seam
/// with the transport, which knows nothing more of messages than this value. It reads a
/// `form.edit` of the plain shape at once (`FormEditLine`, with the session's field names) and
/// keeps any other message as bytes for the full parser on the loop.
package struct MessageDecoder: Sendable {
    /// Nil to keep every message as bytes.
    package let editsMaxDepth: Int?
    package let fieldNames: KnownFieldNames

    package init(editsMaxDepth: Int?, fieldNames: KnownFieldNames = KnownFieldNames()) {
        self.editsMaxDepth = editsMaxDepth
        self.fieldNames = fieldNames
    }

    /// Keeps every message as bytes.
    package static let bytes = MessageDecoder(editsMaxDepth: nil)

    /// A complete message as the server takes it: already read when it is a `form.edit` of the
    /// plain shape, otherwise its bytes. Such an edit's line is also kept in `kept`, when given,
    /// for a recording.
    package func item(_ bytes: UnsafeBufferPointer<UInt8>, keepingEditsIn kept: KeptEditLines? = nil) -> InputItem {
        guard let maxDepth = editsMaxDepth,
              let (edit, parts) = FormEditLine.readWithParts(bytes, maxDepth: maxDepth, fieldNames: fieldNames) else {
            return .line(Array(bytes))
        }
        kept?.append(bytes, edit, parts)
        return .edit(edit)
    }
}
