import Dispatch
import Synchronization
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
    /// Lent to `encode` beside `buffer`: what writes each record, and the secrets seen so far.
    private var records: RecordWriter?
    private let logger: Logger?
    /// The field results field changes name by number.
    private let fieldTable: EncodedFieldTable
    /// `secretNames` and `fieldNames`: every secret field name in the order `SecretFieldsOfKind`
    /// numbers them, and every field name, of the server's form kinds.
    package init(destination: Destination, header: Recording.Header, unopenedForm: SecretFieldsOfKind, secretNames: [String],
         fieldNames: [String], redaction: SecretRedaction,
         writesEachBatch: Bool, fieldTable: EncodedFieldTable, tee: OutputTee?, logger: Logger?) {
        file = if case .file(let fd) = destination { OutputDescriptor(fd) } else { nil }
        records = RecordWriter(
            editedFields: EditedFields(unopenedForm: unopenedForm, secretNames: secretNames, fieldNames: fieldNames, redaction: redaction),
            secrets: RecordingSecrets(clock: header.clock, redaction: redaction, logger: logger),
            maxDepth: header.limits.maxDepth, tee: tee)
        self.writesEachBatch = writesEachBatch
        self.logger = logger
        self.fieldTable = fieldTable
        write(header, to: &buffer!)
    }

    /// Set when a real-clock session ends by a signal: the records still to encode search for no
    /// placeholder, so that the end waits for no search.
    private let endsInHaste = Atomic<Bool>(false)

    /// From now on, placeholders are made without search; from any thread.
    func endInHaste() {
        endsInHaste.store(true, ordering: .relaxed)
    }

    /// Encodes `records` and, when the buffer is full or every batch is written, writes them out;
    /// `inHaste`, without searching for placeholders.
    func encode(_ records: borrowing RecordLog, inHaste: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        var writer = buffer.take()!
        var lines = self.records.take()!
        var searches = !inHaste
        lines.searchesPlaceholders = searches
        // Taken after the batch, the snapshot holds every field result its records name.
        let fields = fieldTable.snapshot()
        records.forEach { entry in
            if searches && endsInHaste.load(ordering: .relaxed) {
                searches = false
                lines.searchesPlaceholders = false
            }
            switch entry {
            case .keptEdit(let time): lines.writeKeptEdit(at: time, to: &writer)
            case .teedOut(let time): lines.writeTeedOut(at: time, to: &writer)
            case .fieldChanged(let time, let change): lines.write(change, at: time, fields: fields, to: &writer)
            case .value(let record): lines.write(record, to: &writer)
            case .context(let context): lines.judgeNextRecords(by: context)
            }
            if writer.count >= Self.bufferSize { writeOut(&writer) }
        }
        if writesEachBatch || !isFile { writeOut(&writer) }
        buffer = consume writer
        self.records = consume lines
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
}
