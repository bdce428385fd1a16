import Dispatch
import Foundation
import SignupCore
import SignupProtocol
import SignupTransport
import SignupServer

/// Encodes a session's records as the JSON lines of protocol.md §15, in the order the loop noted
/// them, replaces their secrets (`RecordingSecrets`) and writes the lines out, all on `queue`: the
/// event loop only notes values (`SessionRecorder`). The placeholders depend on the secrets in the
/// order they come, which one queue keeps, so a virtual recording repeats byte for byte.
package final class RecordEncoder: @unchecked Sendable {
    /// Where the lines go: a file, or memory (`bytes`).
    package enum Destination {
        case file(Int32)
        case memory
    }

    static let formatVersion = 1

    /// The one queue everything below is used on.
    let queue = DispatchQueue(label: "signup-rpc.recording")
    /// The file the lines go to; nil when they go to memory.
    private let file: OutputDescriptor?
    /// Written out after every batch, rather than as the buffer fills.
    private let writesEachBatch: Bool
    /// Lent to `encode` while it runs, so the lines are written to a local writer.
    private var buffer: JSONWriter? = JSONWriter(capacity: RecordEncoder.bufferSize + 4096)
    private static let bufferSize = 1 << 18
    /// Everything written to `.memory`.
    private var memory: [UInt8] = []
    /// The kind of each open form, to tell which edits hold secrets.
    private var forms = OpenFormKinds()
    /// The form an edit without one names, hashed once rather than for each such edit.
    private let defaultForm = (id: Array(Server.defaultFormID.utf8), hash: FormIDHash.process(Server.defaultFormID))
    /// The kind an edit of a form not open is judged by: the default form's, which it opens.
    private let unopenedForm: SecretFieldsOfKind
    /// Every secret field's name, as UTF-8, in the order `SecretFieldsOfKind` numbers them: an edit
    /// of any other field is written as it came, unless the redaction masks it.
    private let secretNames: [[UInt8]]
    /// What secrets are replaced by, and the secrets seen so far.
    private var secrets: RecordingSecrets
    private let redaction: SecretRedaction
    /// How deep a line may nest and still be read as JSON.
    private let maxDepth: Int
    private let logger: Logger?
    /// The field results field changes name by number.
    private let fieldTable: EncodedFieldTable
    /// The lines kept edits come from, and where the next one is in them.
    private var editLines: KeptEditLines?
    private var nextEditLine = 0

    /// Where the messages sent come from, as written, when they are noted by their time only.
    private let tee: OutputTee?

    package init(destination: Destination, header: Recording.Header, unopenedForm: SecretFieldsOfKind, secretNames: [String],
         redaction: SecretRedaction,
         writesEachBatch: Bool, fieldTable: EncodedFieldTable, tee: OutputTee?, logger: Logger?) {
        self.tee = tee
        file = if case .file(let fd) = destination { OutputDescriptor(fd) } else { nil }
        self.unopenedForm = unopenedForm
        self.secretNames = secretNames.map { Array($0.utf8) }
        self.redaction = redaction
        secrets = RecordingSecrets(clock: header.clock, redaction: redaction, logger: logger)
        maxDepth = header.limits.maxDepth
        self.writesEachBatch = writesEachBatch
        self.logger = logger
        self.fieldTable = fieldTable
        write(header, to: &buffer!)
    }

    /// Encodes `records` and, when the buffer is full or every batch is written, writes them out.
    func encode(_ records: borrowing RecordLog) {
        dispatchPrecondition(condition: .onQueue(queue))
        var writer = buffer.take()!
        // Taken after the batch, the snapshot holds every field result its records name.
        let fields = fieldTable.snapshot()
        records.forEach { entry in
            switch entry {
            case .keptEdit(let time): writeKeptEdit(at: time, to: &writer)
            case .teedOut(let time): writeTeedOut(at: time, to: &writer)
            case .fieldChanged(let time, let change): write(change, at: time, fields: fields, to: &writer)
            case .value(let record): write(record, to: &writer)
            case .context(let context): judgeNextRecords(by: context)
            }
            if writer.count >= Self.bufferSize { writeOut(&writer) }
        }
        if writesEachBatch || !isFile { writeOut(&writer) }
        buffer = consume writer
    }

    /// Writes out what is buffered; for a file, returns once it is there.
    package func finish() {
        dispatchPrecondition(condition: .onQueue(queue))
        var writer = buffer.take()!
        writeOut(&writer)
        buffer = consume writer
    }

    /// Everything recorded to memory.
    package var bytes: [UInt8] {
        dispatchPrecondition(condition: .onQueue(queue))
        return memory
    }

    /// Whether the lines go to a file, handed over to `queue`, rather than to memory.
    var isFile: Bool { file != nil }

    private func writeOut(_ writer: inout JSONWriter) {
        guard writer.count > 0 else { return }
        if let file {
            if let reason = writer.withBytes(file.write) {
                logger?.warning("recording: writing the file failed (\(reason)); it stops here, without its end")
            }
        } else {
            writer.withBytes { memory.append(contentsOf: $0) }
        }
        writer.removeAll()
    }

    // MARK: Lines

    private func write(_ header: Recording.Header, to buffer: inout JSONWriter) {
        buffer.object { body in
            body.key("signupRecording"); body.int(Self.formatVersion)
            body.key("server"); body.string("\(Server.name) \(Server.version)")
            body.key("clock"); body.string(header.clock.rawValue)
            body.key("debounceMs"); body.int(header.debounce)
            if header.checkBudget != CheckBudgetLimits() {
                body.key("checkBudget")
                body.object {
                    $0.key("session"); $0.int(header.checkBudget.session)
                    $0.key("store"); $0.int(header.checkBudget.store)
                }
            }
            body.key("backend"); body.string(header.backend)
            body.key("roles")
            body.array { roles in
                roles.string("availability")
                roles.string("register")
                if header.logsIn { roles.string("logIn") }
                if header.savesFriends { roles.string("friends") }
            }
            body.key("limits"); header.limits.write(to: &body)
            body.key("forms"); body.array { list in header.formFiles.forEach { list.json($0) } }
        }
        buffer.newline()
    }

    private func judgeNextRecords(by context: EncodingContext) {
        switch context {
        case .formKind(let id, let kind): forms.set(kind, ofForm: id)
        case .editLines(let lines): (editLines, nextEditLine) = (lines, 0)
        }
    }

    private func write(_ record: SessionRecord, to buffer: inout JSONWriter) {
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
            BackendExchangeJSON.write(secrets.hiding(in: question), to: &buffer)
        case .answered(let number, let answer):
            buffer.key("answer"); buffer.int(number)
            BackendExchangeJSON.write(secrets.hiding(in: answer), to: &buffer)
        case .cancelled(let number):
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
    private func write(outEncodedBy encode: (inout JSONWriter) -> Void, to buffer: inout JSONWriter) {
        guard secrets.mayBeInOutput else { return encode(&buffer) }
        var scratch = JSONWriter(capacity: 512)
        encode(&scratch)
        scratch.withBytes { write(out: $0.assumingMemoryBound(to: UInt8.self), to: &buffer) }
    }

    /// A message the server sent, with any backend secret it carries replaced.
    private func write(out line: UnsafeBufferPointer<UInt8>, to buffer: inout JSONWriter) {
        if secrets.mayBeInOutput, let hidden = secrets.hiding(inOut: line) {
            buffer.json(hidden)
        } else {
            buffer.verbatim(UnsafeRawBufferPointer(line))
        }
    }

    /// A plain `form.edit` as the client sent it: the next of the kept lines, its value replaced
    /// when it is a secret.
    private func writeKeptEdit(at time: Int64, to buffer: inout JSONWriter) {
        guard let editLines else { preconditionFailure("a kept edit follows its lines") }
        startRecord(at: time, then: #","in":"#, to: &buffer)
        (_, nextEditLine) = editLines.line(at: nextEditLine) { edit in
            let line = edit.line
            let value = edit.value
            let text = UnsafeRawBufferPointer(rebasing: line[(value.lowerBound + 1)..<(value.upperBound - 1)])
            let hidden: String? = if let field = secretField(named: edit.field, inForm: edit.form, hash: edit.formHash) {
                secrets.placeholder(for: text, of: field)
            } else if redaction.masksValue(ofFieldNamed: edit.field) {
                SecretRedaction.mask
            } else {
                nil
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
    }

    /// A message sent, the next line the tee holds, as written; none when the writer was given
    /// up on before it wrote it (a client that read nothing as the session ended).
    private func writeTeedOut(at time: Int64, to buffer: inout JSONWriter) {
        guard let tee else { preconditionFailure("a teed message comes with its tee") }
        tee.withNextLine { line in
            startRecord(at: time, then: #","out":"#, to: &buffer)
            write(out: line.assumingMemoryBound(to: UInt8.self), to: &buffer)
            buffer.verbatim("}\n")
        }
    }

    /// A field's change as sent, its field and result copied from the entry encoded once.
    private func write(_ change: RecordLog.FieldChanged, at time: Int64, fields: EncodedFieldTable.Snapshot,
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

    // MARK: Secrets

    /// The secret field `field` of the form `form` (with `hash`; the default form when nil) is,
    /// as the server saw it when the edit came; nil when it is not secret.
    private func secretField(named field: UnsafeRawBufferPointer, inForm form: UnsafeRawBufferPointer?, hash: UInt64) -> SecretField? {
        guard let position = secretNames.firstIndex(where: { Self.equal($0, field) }) else { return nil }
        let kind = if let form {
            forms.kind(ofForm: form, hash: hash)
        } else {
            defaultForm.id.withUnsafeBytes { forms.kind(ofForm: $0, hash: defaultForm.hash) }
        }
        return (kind ?? unopenedForm).secretField(at: position)
    }

    private static func equal(_ bytes: [UInt8], _ other: UnsafeRawBufferPointer) -> Bool {
        bytes.count == other.count && bytes.withUnsafeBytes { $0.elementsEqual(other) }
    }
}
