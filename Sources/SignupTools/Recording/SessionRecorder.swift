import Dispatch
import Foundation
import SignupCore
import SignupProtocol
import SignupTransport
import SignupServer

/// `--record FILE`: the session as JSON lines — a header, then every message in and out and every
/// backend question and answer, each with its time on the server's clock, in the order the event
/// loop took them. Secrets are replaced by placeholders of the same shape and validity
/// (`SecretPlaceholders`). The format is in protocol.md §15; `Recording` reads it back.
///
/// The loop only notes each record, in a `RecordLog`, and hands a batch at a time to
/// `RecordEncoder`, which encodes and writes them on a queue of its own, in the same order; the
/// loop also tells it which kind each form is as forms open and close, so that it can judge which
/// edits hold secrets. A plain edit's line comes as the reader kept it (`KeptEditLines`), and on
/// the virtual clock each message sent as the session's writer wrote it (`OutputTee`): for those the
/// loop notes only the time. Used on the event loop only (in process, by whoever drives the server).
package final class SessionRecorder: BackendObserver {
    package typealias Destination = RecordEncoder.Destination

    private let encoder: RecordEncoder
    /// Records noted and not yet handed to the encoder.
    private var records = SessionRecorder.newLog()
    /// A batch of this many records, or this many bytes of edits and field changes, is handed
    /// over at once: few enough hand-overs that waking the encoder's queue costs little.
    private static let batchSize = 8192
    private static let batchBytes = 1 << 19
    /// What a batch starts with, below what `malloc` maps afresh for each allocation.
    private static let initialBytes = 1 << 16

    private static func newLog() -> RecordLog {
        RecordLog(capacity: initialBytes, fullCount: batchSize, fullBytes: batchBytes)
    }
    /// Records handed to a file's encoder and not yet encoded: a loop that outruns the encoder
    /// waits for it rather than queue records without bound. Counted by `RecordLog.size`, so that
    /// the many small batches of real time (one per piece of work) wait only as long as big ones.
    private let inFlight = InFlightBudget(limit: inFlightLimit)
    private static let inFlightLimit = 8 << 20
    /// On the real clock, placeholders are not searched for when the recording is far behind.
    private let isRealClock: Bool
    private let now: () -> Int64
    /// The field a secret value belongs to, for its placeholder's rules: nil when the field is not
    /// secret. Set by whoever makes the server, once it is made.
    var secretField: (_ form: String?, _ kind: String?, _ field: String) -> FieldDefinition? = { _, _, _ in nil }
    /// Which edits' secrets are judged beside other fields' values, and those values.
    private let likeness: LikenessComparisons
    /// Which secret fields each kind has, for the encoder to judge edits by, made once per kind.
    private var kinds: [String: SecretFieldsOfKind] = [:]
    private let secretFieldsOfAnyKind: [String: SecretField]
    /// Runs the hand-over it is given once the loop's current work is done; nil to hand over only
    /// as batches fill and at the end.
    var flushAfterWork: ((@escaping () -> Void) -> Void)?
    private var isFlushPending = false
    /// Names of every secret field any form kind has, sorted; as UTF-8, to pick out lines that may
    /// hold a secret.
    private let secretNames: [String]
    /// What the trace and the recording may write of a message.
    private let redaction: SecretRedaction
    /// Names of fields some kind asks its backend about as names (`SecretField.isAskedAbout`).
    private let namesAskedAbout: Set<String>
    /// Where notifications' field results are encoded once, for the encoder to copy.
    let fieldResults = EncodedFieldResults()
    /// The lines of plain edits the reader kept, by read, for edits not yet taken; `nextKept` is
    /// the first of them not yet noted, and `keptLeft` says how many edits remain of the one before.
    private var kept: [KeptEditLines] = []
    private var nextKept = 0
    private var keptLeft = 0
    #if DEBUG
    /// Where the next edit's line is in the lines last noted, to check that it is that edit's.
    private var keptOffset = 0
    private var keptLines: KeptEditLines?
    #endif
    private var nextQuestion = 1
    private var isEnded = false

    /// Where the messages sent are taken from as written, when they are (`OutputTee`): then each
    /// is noted by its time only.
    let tee: OutputTee?
    /// Hands what the sink holds back to its writer, so that everything noted reaches the tee
    /// before the loop waits for the encoder, which may be waiting for the tee.
    var flushSink: () -> Void = {}

    /// A recorder for a server of `configuration` with these form kinds and backends; `tee`, when
    /// given, carries every message the server's sink writes.
    package init(destination: Destination, configuration: ServerConfiguration, catalog: FormCatalog, services: FormServices,
         tee: OutputTee? = nil, logger: Logger? = nil, now: @escaping () -> Int64) {
        self.tee = tee
        let header = Recording.Header(
            clock: configuration.clock, debounce: configuration.debounce.milliseconds, limits: configuration.limits,
            checkBudget: configuration.checkBudget,
            backend: configuration.backend.name, logsIn: services.authentication != nil, savesFriends: services.friends != nil,
            formFiles: configuration.customFormDocuments)
        let secretFieldNames = Set(catalog.definitions.flatMap { $0.fields.filter(\.isSecret).map(\.name) })
        secretFieldsOfAnyKind = SecretFieldsOfKind.secretFieldsOfAnyKind(catalog.definitions)
        // A form not open is judged as the default form, which an edit opens as a sign-up form.
        secretNames = secretFieldNames.sorted()
        let unopened = SecretFieldsOfKind(catalog.definition(FormDefinition.signup.kind) ?? .signup,
                                          secretFieldsOfAnyKind: secretFieldsOfAnyKind, secretNames: secretNames)
        kinds[unopened.kind] = unopened
        likeness = LikenessComparisons(catalog.definitions)
        redaction = SecretRedaction(forms: catalog.definitions)
        namesAskedAbout = SecretRedaction.namesAskedAbout(in: catalog.definitions)
        encoder = RecordEncoder(destination: destination, header: header, unopenedForm: unopened, secretNames: secretNames,
                                fieldNames: catalog.definitions.flatMap { $0.fields.map(\.name) }, redaction: redaction,
                                writesEachBatch: header.clock == .real, fieldTable: fieldResults.table, tee: tee, logger: logger)
        self.now = now
        isRealClock = configuration.clock == .real
    }

    /// What the server's forms are made with, so that every question, answer and message passes here.
    package func observing(_ services: FormServices, sendingTo sink: any MessageSink) -> (FormServices, any MessageSink) {
        (ObservedBackend.observing(services, with: self), RecordingSink(sink, recorder: self))
    }

    /// Looks up secret fields in `server` from now on, and follows which kind each of its forms is.
    package func attach(to server: Server) {
        secretField = { [weak server] form, kind, field in server?.secretField(field, inForm: form, kind: kind) }
        likeness.values = { [weak server] form, hash, field in server?.comparedValues(ofField: field, inForm: form, hash: hash) }
        server.formsDidChange = { [weak self] id, definition in self?.recordForm(id, definition) }
    }

    /// The form `id` opened as a form of `definition`'s kind, or closed (nil).
    private func recordForm(_ id: String, _ definition: FormDefinition?) {
        likeness.formDidChange(id, definition)
        guard let definition else { return note(EncodingContext.formKind(id: id, nil)) }
        let kind = kinds[definition.kind]
            ?? SecretFieldsOfKind(definition, secretFieldsOfAnyKind: secretFieldsOfAnyKind, secretNames: secretNames)
        kinds[definition.kind] = kind
        note(EncodingContext.formKind(id: id, kind))
    }

    // MARK: Messages

    /// The lines of the plain edits in the input the loop is about to take, in order.
    package func willTake(_ lines: KeptEditLines) {
        guard lines.count > 0 else { return }
        if nextKept == kept.count {
            kept.removeAll(keepingCapacity: true)
            nextKept = 0
        }
        kept.append(lines)
    }

    /// A message as the loop takes it, before it is handled.
    package func recordIn(_ item: borrowing InputItem) {
        switch item {
        case .edit(let edit):
            if keptLeft == 0 && nextKept < kept.count {
                let lines = kept[nextKept]
                nextKept += 1
                keptLeft = lines.count
                note(EncodingContext.editLines(lines))
                #if DEBUG
                (keptLines, keptOffset) = (lines, 0)
                #endif
            }
            precondition(keptLeft > 0, "a recorded edit comes with its line, kept where it was read (InputFramer)")
            keptLeft -= 1
            checkKeptLine(is: edit)
            if let values = likeness.valuesCompared(with: edit) { note(EncodingContext.comparedValues(values)) }
            didNote(full: records.appendKeptEdit(at: now()))
        case .message(let message, let bytes):
            recordIn(message, bytes: bytes)
        case .malformed(let bytes, _):
            // Kept as read; the encoder masks it.
            note(.line(bytes))
        case .oversizeLine:
            note(.oversizeLine)
        }
    }

    /// In debug builds, that the next kept line is `edit`'s.
    private func checkKeptLine(is edit: borrowing FormEditLine) {
        #if DEBUG
        guard let keptLines else { preconditionFailure("an edit's kept line follows its lines") }
        keptOffset = keptLines.line(at: keptOffset) { line in
            precondition(line.formHash == edit.formHash ?? 0 && line.field.elementsEqual(edit.field.utf8),
                         "each kept line is the line of the edit taken")
        }
        #endif
    }

    /// A message that is not a plain edit: kept as it came when its types show all of it (a
    /// `form.open` with no secret field's value, an `initialize`); otherwise with the secret
    /// fields its values belong to, found here, where the server can say which of them are secret
    /// as the message comes, and redacted by the encoder.
    private func recordIn(_ message: JSON, bytes: [UInt8]) {
        var secretFields: [SecretRedaction.Place: SecretField] = [:]
        let shown = redaction.redacting(message) { _, place in
            if let definition = secretField(place.form, place.kind, place.field) {
                secretFields[place] = SecretField(definition, isAskedAbout: namesAskedAbout.contains(place.field))
            }
            return nil
        }
        guard !secretFields.isEmpty || shown != message else { return note(.line(bytes)) }
        note(.message(message, secretFields: secretFields))
    }

    /// A message the server sends, to be taken from the tee as written.
    func recordTeedOut() {
        didNote(full: records.appendTeedOut(at: now()))
    }

    /// A whole message the server sends, as sent.
    func recordOut(_ message: UnsafeRawBufferPointer) {
        note(.out(Array(message)))
    }

    /// A notification the server sends, to be encoded by the encoder.
    func recordOut(_ notification: FormNotification) {
        note(.notification(notification))
    }

    /// A field's change the server sends, its field and result encoded in `entry`, one of `fieldResults`'.
    func recordFieldChanged(form: String, entry: EncodedFieldResult, version: Int, at: Int64) {
        didNote(full: records.appendFieldChanged(form: form, fieldResult: entry.number, version: version, at: at, time: now()))
    }

    /// The session's end: `input` (end of input), `exit`, `signal` or `clientGone`. Returns once
    /// the recording is complete.
    package func recordEnd(_ reason: String) {
        guard !isEnded else { return }
        isEnded = true
        if reason == "signal" && isRealClock { encoder.endInHaste() }
        note(.end(reason))
        handOver()
        flushSink()
        encoder.queue.sync { encoder.finish() }
    }

    /// Everything recorded to memory so far, once encoded.
    package var bytes: [UInt8] {
        handOver()
        return encoder.queue.sync { encoder.bytes }
    }

    // MARK: Backend

    package func backendAsked(_ question: BackendQuestion) -> Int {
        let number = nextQuestion
        nextQuestion += 1
        note(.asked(number, question))
        return number
    }

    package func backendAnswered(_ number: Int, _ answer: BackendAnswer) {
        note(.answered(number, answer))
    }

    package func backendCancelled(_ number: Int) {
        note(.cancelled(number))
    }

    // MARK: Handing over

    private func note(_ content: consuming SessionRecord.Content) {
        didNote(full: records.append(SessionRecord(time: now(), content: content)))
    }

    private func note(_ context: EncodingContext) {
        didNote(full: records.append(context))
    }

    /// After a record is noted: hands the batch over when it is `full`, or arranges that it is
    /// handed over after the loop's current work.
    private func didNote(full: Bool) {
        if full {
            handOver()
        } else if let flushAfterWork, !isFlushPending {
            isFlushPending = true
            flushAfterWork { [self] in
                isFlushPending = false
                handOver()
            }
        }
    }

    /// Hands the records noted so far to the encoder: a file's to encode on its queue (waiting
    /// while too many batches are ahead of it), memory's at once.
    func handOver() {
        guard !records.isEmpty else { return }
        var taken = Self.newLog()
        swap(&taken, &records)
        let batch = RecordBatch(taken)
        let encoder = encoder
        guard encoder.isFile else { return encoder.queue.sync { encoder.encode(batch.take()) } }
        let size = batch.size
        if inFlight.wouldWait(for: size) { flushSink() }
        inFlight.take(size)
        let inFlight = inFlight
        let hurries = isRealClock
        encoder.queue.async {
            // A real-clock recording far behind its session catches up without searching.
            encoder.encode(batch.take(), inHaste: hurries && inFlight.inFlight > Self.inFlightLimit / 4)
            inFlight.giveBack(size)
        }
    }
}
