/// One message of input, decoded once, as the server, the trace and a recording all take it.
package enum InputItem: Sendable {
    /// A JSON text (a request, a notification or a batch), with its bytes as they came, without
    /// the line's `\n` (and a `\r` before it): a recording keeps those bytes.
    case message(JSON, bytes: [UInt8])
    /// A message that is not JSON (or too deeply nested), with its bytes and why reading stopped.
    case malformed([UInt8], JSONParseError)
    /// A `form.edit` request of the plain shape, read straight into its typed form.
    case edit(FormEditLine)
    /// A line longer than the limit; its bytes were skipped, never buffered.
    case oversizeLine
}

/// What the connection hands each complete message to, on its reading thread: the codec's seam
/// with the transport, which knows nothing more of messages than this value. Every message is
/// decoded here, once, through the one `JSONReader`: a `form.edit` of the plain shape straight
/// into its typed form (`FormEditLine`, with the session's field names), any other into a `JSON`
/// tree (`JSONParser`). The loop, the trace and the recording then take the decoded message.
package struct MessageDecoder: Sendable {
    /// How deeply a message may nest.
    package let maxDepth: Int
    /// Whether plain edits are read into `FormEditLine`; a recording then needs their lines kept.
    package let readsEdits: Bool
    package let fieldNames: KnownFieldNames

    package init(maxDepth: Int, readsEdits: Bool = true, fieldNames: KnownFieldNames = KnownFieldNames()) {
        self.maxDepth = maxDepth
        self.readsEdits = readsEdits
        self.fieldNames = fieldNames
    }

    /// Decodes every message through `JSONParser`, at the default nesting limit.
    package static let generic = MessageDecoder(maxDepth: JSONParser.defaultMaxDepth, readsEdits: false)

    /// A complete message as the server takes it. A `form.edit` of the plain shape read into its
    /// typed form has its line kept in `kept` too, when given, for a recording.
    package func item(_ bytes: UnsafeBufferPointer<UInt8>, keepingEditsIn kept: KeptEditLines? = nil) -> InputItem {
        if readsEdits, let (edit, parts) = FormEditLine.decode(bytes, maxDepth: maxDepth, fieldNames: fieldNames) {
            kept?.append(bytes, edit, parts)
            return .edit(edit)
        }
        return message(bytes)
    }

    /// A complete message read through `JSONParser` only, never into a `FormEditLine`: for
    /// messages that come where no line is kept for a recording.
    package func message(_ bytes: UnsafeBufferPointer<UInt8>) -> InputItem {
        do throws(JSONParseError) {
            return .message(try JSONParser.parse(bytes, maxDepth: maxDepth), bytes: Array(bytes))
        } catch {
            return .malformed(Array(bytes), error)
        }
    }

    /// `message(_:)` of an array of bytes.
    package func message(_ bytes: [UInt8]) -> InputItem {
        bytes.withUnsafeBufferPointer { message($0) }
    }
}
