import Foundation
import SignupCore
import SignupProtocol
import SignupTransport

/// Writes each record as its line of the recording (protocol.md §15), its secrets replaced: what
/// `RecordEncoder` lends `encode` as a value for a batch, beside the buffer the lines go to, so
/// that writing a record changes a local value, not the encoder's properties, each use of which
/// Swift checks for exclusive access as the program runs.
struct RecordWriter {
    /// Which edits hold secrets, by field and form kind.
    private let editedFields: EditedFields
    /// What secrets are replaced by, and the secrets seen so far.
    private var secrets: RecordingSecrets
    /// How deep a line may nest and still be read as JSON.
    private let maxDepth: Int
    /// The lines kept edits come from, and where the next one is in them.
    private var editLines: KeptEditLines?
    private var nextEditLine = 0
    /// What the next kept edit's secret is compared with, when the loop noted it.
    private var comparedValues: [String: String] = [:]
    /// Where the messages sent come from, as written, when they are noted by their time only.
    private let tee: OutputTee?

    /// Whether placeholders are searched for (`RecordingSecrets.searchesPlaceholders`).
    var searchesPlaceholders: Bool {
        get { secrets.searchesPlaceholders }
        set { secrets.searchesPlaceholders = newValue }
    }

    init(editedFields: EditedFields, secrets: RecordingSecrets, maxDepth: Int, tee: OutputTee?) {
        self.editedFields = editedFields
        self.secrets = secrets
        self.maxDepth = maxDepth
        self.tee = tee
    }

    /// Follows what the loop told the encoder: a form's kind, or the lines the next kept edits are in.
    mutating func judgeNextRecords(by context: EncodingContext) {
        switch context {
        case .formKind(let id, let kind): editedFields.set(kind, ofForm: id)
        case .editLines(let lines): (editLines, nextEditLine) = (lines, 0)
        case .comparedValues(let values): comparedValues = values
        }
    }

    mutating func write(_ record: SessionRecord, to buffer: inout JSONWriter) {
        startRecord(at: record.time, then: ",", to: &buffer)
        switch record.content {
        case .line(let bytes):
            if let message = bytes.withUnsafeBufferPointer({ try? JSONParser.parse($0, maxDepth: maxDepth) }) {
                buffer.key("in")
                // A record is one line: a message with line feeds between its tokens (an LSP body
                // written over several lines) is written compact.
                if bytes.contains(0x0A) { buffer.json(message) } else { bytes.withUnsafeBytes { buffer.verbatim($0) } }
            } else {
                write(text: SecretRedaction.maskedText(bytes, maxDepth: maxDepth), to: &buffer)
            }
        case .message(let message, let secretFields):
            buffer.key("in")
            buffer.json(secrets.hiding(in: message, secretFields))
        case .oversizeLine:
            buffer.key("oversize"); buffer.bool(true)
        case .out(let message):
            buffer.key("out")
            message.withUnsafeBufferPointer { write(out: $0, to: &buffer) }
        case .notification(let notification):
            buffer.key("out")
            write(outEncodedBy: { notification.write(to: &$0) }, to: &buffer)
        case .asked(let number, let question):
            buffer.key("ask"); buffer.int(number)
            BackendExchangeJSON.write(secrets.hiding(in: question, number: number), to: &buffer)
        case .answered(let number, let answer):
            buffer.key("answer"); buffer.int(number)
            BackendExchangeJSON.write(secrets.hiding(in: answer, number: number), to: &buffer)
        case .cancelled(let number):
            secrets.questionCancelled(number)
            buffer.key("cancel"); buffer.int(number)
        case .end(let reason):
            buffer.key("end"); buffer.string(reason)
        }
        buffer.verbatim("}\n")
    }

    /// A record's start: `{"t":` and its time, then `text`, a member's fixed start.
    private func startRecord(at time: Int64, then text: StaticString, to buffer: inout JSONWriter) {
        buffer.verbatim(#"{"t":"#)
        buffer.int(time)
        buffer.verbatim(text)
    }

    /// A line that is not JSON, as text, or as base64 when it is not even UTF-8.
    private func write(text bytes: [UInt8], to buffer: inout JSONWriter) {
        if let text = String(validating: bytes, as: UTF8.self) {
            buffer.key("text"); buffer.string(text)
        } else {
            buffer.key("base64"); buffer.string(Data(bytes).base64EncodedString())
        }
    }

    /// The message `encode` writes, with any backend secret it carries replaced.
    private mutating func write(outEncodedBy encode: (inout JSONWriter) -> Void, to buffer: inout JSONWriter) {
        guard secrets.mayBeInOutput else { return encode(&buffer) }
        var scratch = JSONWriter(capacity: 512)
        encode(&scratch)
        scratch.withBytes { write(out: $0.assumingMemoryBound(to: UInt8.self), to: &buffer) }
    }

    /// A message the server sent, with any backend secret it carries replaced.
    private mutating func write(out line: UnsafeBufferPointer<UInt8>, to buffer: inout JSONWriter) {
        if secrets.mayBeInOutput, let hidden = secrets.hiding(inOut: line) {
            buffer.json(hidden)
        } else {
            buffer.verbatim(UnsafeRawBufferPointer(line))
        }
    }

    /// A plain `form.edit` as the client sent it: the next of the kept lines, its value replaced
    /// when it is a secret.
    mutating func writeKeptEdit(at time: Int64, to buffer: inout JSONWriter) {
        guard let editLines else { preconditionFailure("a kept edit follows its lines") }
        startRecord(at: time, then: #","in":"#, to: &buffer)
        nextEditLine = editLines.line(at: nextEditLine) { edit in
            let line = edit.line
            let value = edit.value
            let text = UnsafeRawBufferPointer(rebasing: line[(value.lowerBound + 1)..<(value.upperBound - 1)])
            let hidden: String? = switch editedFields.value(ofField: edit.field, inForm: edit.form, hash: edit.formHash) {
            case .secret(let field): secrets.placeholder(for: text, of: field, comparedWith: comparedValues)
            case .masked: SecretRedaction.mask
            case .kept: nil
            }
            if let hidden {
                buffer.verbatim(UnsafeRawBufferPointer(rebasing: line[..<value.lowerBound]))
                buffer.string(hidden)
                buffer.verbatim(UnsafeRawBufferPointer(rebasing: line[value.upperBound...]))
            } else {
                buffer.verbatim(line)
            }
        }
        buffer.verbatim("}\n")
        if !comparedValues.isEmpty { comparedValues = [:] }
    }

    /// A message sent, the next line the tee holds, as written; none when the writer was given
    /// up on before it wrote it (a client that read nothing as the session ended).
    mutating func writeTeedOut(at time: Int64, to buffer: inout JSONWriter) {
        guard let tee else { preconditionFailure("a teed message comes with its tee") }
        _ = tee.withNextLine { line in
            startRecord(at: time, then: #","out":"#, to: &buffer)
            write(out: line.assumingMemoryBound(to: UInt8.self), to: &buffer)
            buffer.verbatim("}\n")
        }
    }

    /// A field's change as sent, its field and result copied from the entry encoded once.
    mutating func write(_ change: RecordLog.FieldChanged, at time: Int64, fields: EncodedFieldTable.Snapshot,
                        to buffer: inout JSONWriter) {
        startRecord(at: time, then: #","out":"#, to: &buffer)
        write(outEncodedBy: { writer in
            fields.withMembers(change.fieldResult) { members in
                Notifications.writeFieldChanged(
                    formUTF8: change.form, members: members, version: change.version, at: change.at, to: &writer)
            }
        }, to: &buffer)
        buffer.verbatim("}\n")
    }
}
