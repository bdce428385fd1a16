import Foundation
import Synchronization
import SignupCore
import SignupProtocol
import SignupTransport

/// `--trace FILE`, and `--log-level debug` on stderr: every message in and out as one JSON
/// record a line, with the wall-clock time, so an integrator sees the traffic from the server's
/// side. Secrets never reach it: messages in are redacted as the recording redacts them
/// (`SecretRedaction`), a secret field's value reading `"[secret]"`; in messages out every member
/// whose name names a secret (`SecretRedaction.namesSecretMember`) reads `"[secret]"`, and so
/// does any string that is the value a secret field the forms ask about as a name held when its
/// form was submitted (a custom kind whose username field is secret), and, once a form is
/// submitted, the values its secret fields held then wherever they stand in a message out about
/// that form (a backend's welcome or validation error quoting the password). A message out whose
/// type knows every member's name (`NotificationType.mayNameSecretMember`: a field's change but
/// one a backend worded) is not searched for such names: its encoder says so (`LineScreening`).
///
/// Records: `{"time":"…Z","dir":"in"|"out","message":…}`, with `"connection":N` after the time
/// under `--listen` (the connection's number, as a recording's file is numbered); input that is
/// not JSON is traced as `"text"` (its first 1 000 bytes, masked as `SecretRedaction.maskedText`
/// masks it), a line over the limit as `"oversize":true`.
final class Tracer: @unchecked Sendable {
    // Guarded by `lock`: records come from the loop (in) and the writer thread (out).
    private let lock = NSLock()
    /// Held while records taken from `pending` are written, so that they reach the file in the
    /// order they were taken, while `lock` is free for the next records to be noted.
    private let writeLock = NSLock()
    /// Records not yet written, in order: those of messages in since the last write.
    private var pending = JSONWriter(capacity: 1 << 14)
    /// Records taken from `pending` to be written, exchanged with it; guarded by `writeLock`.
    private var taken = JSONWriter(capacity: 1 << 14)
    private let namesAskedAbout: Set<String>
    /// Written under `lock`; one whose write fails (a full disk) is written no more.
    private let destinations: [OutputDescriptor]
    private let logger: Logger?
    private let redaction: SecretRedaction
    private let maxDepth: Int
    /// Records' openings by direction: records in are made on the loop, records out where they are
    /// written, so each cache has one user at a time.
    private let inHeads = Mutex(RecordHeadCache(direction: #","dir":"in""#))
    private let outHeads = Mutex(RecordHeadCache(direction: #","dir":"out""#))

    static let secret = SecretRedaction.mask

    init(destinations: [Int32], forms: [FormDefinition], maxDepth: Int, logger: Logger? = nil) {
        self.destinations = destinations.map(OutputDescriptor.init)
        self.logger = logger
        redaction = SecretRedaction(forms: forms)
        namesAskedAbout = SecretRedaction.namesAskedAbout(in: forms)
        self.maxDepth = maxDepth
    }

    /// A message as the loop takes it: its record is written with the next messages out, or at
    /// `flush()`, whichever comes first, so that it is always written before what it causes.
    func traceIn(_ item: borrowing InputItem, connection: TracedConnection) {
        let record: Record
        switch item {
        case .message(let message, _): record = .message(redactedIn(message, connection: connection))
        case .malformed(let bytes, _): record = bytes.withUnsafeBufferPointer(text(of:))
        case .edit(let edit): return traceIn(edit, connection: connection)
        case .oversizeLine: record = .oversize
        }
        var records = JSONWriter(capacity: 512)
        write(record, .in, connection: connection.number, to: &records)
        lock.withLock { records.withBytes { pending.verbatim($0) } }
    }

    /// A plain `form.edit`, its record written as its message would be redacted
    /// (`SecretRedaction.write(_:to:)`), without building the message, straight into the records
    /// not yet written, under the lock, with its secret value noted.
    private func traceIn(_ edit: borrowing FormEditLine, connection: TracedConnection) {
        let value = lock.withLock {
            startRecord(.in, connection: connection.number, in: &pending)
            pending.verbatim(#","message":"#)
            let value = redaction.write(edit, to: &pending)
            Self.endRecord(in: &pending)
            return value
        }
        if value == .secret {
            connection.secrets.withLock { $0.note(edit.value, ofField: edit.field, inForm: edit.form ?? Server.defaultFormID) }
        }
    }

    /// Writes the records of messages in not yet written; the loop calls it after each batch.
    /// While the writer thread is writing records, the loop does not wait for it: the records
    /// stay, in order, for that thread's next write, the next batch's, or the connection's end.
    func flush() {
        guard writeLock.try() else { return }
        defer { writeLock.unlock() }
        lock.withLock(takePending)
        writeTaken()
    }

    /// Whole messages as the writer writes them, each followed by `\n`: their records written
    /// together, after any records in not yet written, in one write. `screening`: whether their
    /// encoder knows that none names a secret member (every field's change but those from a
    /// backend's results naming one), so that none is searched for such a name.
    func traceOut(_ bytes: UnsafeRawBufferPointer, screening: LineScreening = .needed, connection: TracedConnection) {
        // Before any form of the connection is submitted, a message out hides only its members
        // that name a secret: one without such a name anywhere is traced as it was written.
        let hidesOnlyMembers = connection.secrets.withLock { !$0.hasSubmitted }
        let namesNone = hidesOnlyMembers && screening == .notNeeded
        var records = JSONWriter(capacity: bytes.count + bytes.count / 2 + 256)
        var start = 0
        while start < bytes.count {
            let end = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start).map { bytes.baseAddress!.distance(to: UnsafeRawPointer($0)) }
                ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start..<end])
            if namesNone || hidesOnlyMembers && !SecretRedaction.mayNameSecretMember(in: line) {
                startRecord(.out, connection: connection.number, in: &records)
                records.verbatim(#","message":"#); records.verbatim(UnsafeRawBufferPointer(line))
                Self.endRecord(in: &records)
            } else {
                write(message(in: line) { redactedOut($0, connection: connection) }, .out, connection: connection.number, to: &records)
            }
            start = end + 1
        }
        // The records in noted so far are written first, then these as built, not copied after them.
        writeLock.withLock {
            lock.withLock(takePending)
            writeTaken()
            records.withBytes(writeToDestinations)
        }
    }

    private enum Record {
        case message(JSON)
        case text(String)
        case oversize
    }

    /// A message out, decoded from the bytes written (messages in come decoded).
    private func message(in line: UnsafeBufferPointer<UInt8>, redactedBy redacted: (JSON) -> JSON) -> Record {
        do throws(JSONParseError) {
            return .message(redacted(try JSONParser.parse(line, maxDepth: maxDepth)))
        } catch {
            return text(of: line)
        }
    }

    /// Input that is not JSON, masked as a recording masks it, its first 1 000 bytes.
    private func text(of line: UnsafeBufferPointer<UInt8>) -> Record {
        let masked = SecretRedaction.maskedText(Array(line), maxDepth: maxDepth)
        return .text(String(decoding: masked.prefix(1000), as: UTF8.self))
    }

    /// A record of `record`, timed now.
    private func write(_ record: Record, _ direction: Direction, connection: Int?, to records: inout JSONWriter) {
        startRecord(direction, connection: connection, in: &records)
        switch record {
        case .message(let json): records.verbatim(#","message":"#); records.json(json)
        case .text(let text): records.verbatim(#","text":"#); records.string(text)
        case .oversize: records.verbatim(#","oversize":true"#)
        }
        Self.endRecord(in: &records)
    }

    private enum Direction {
        case `in`, out
    }

    /// Opens a record timed now, up to its direction; `endRecord` closes it.
    private func startRecord(_ direction: Direction, connection: Int?, in records: inout JSONWriter) {
        let now = Self.millisecondsSince1970()
        switch direction {
        case .in: inHeads.withLock { $0.write(at: now, connection: connection, to: &records) }
        case .out: outHeads.withLock { $0.write(at: now, connection: connection, to: &records) }
        }
    }

    private static func endRecord(in records: inout JSONWriter) {
        records.verbatim("}\n")
    }

    /// The records not yet written, taken; under `writeLock` and `lock`.
    private func takePending() {
        swap(&pending, &taken)
    }

    /// Writes the records taken from `pending`, and empties them; under `writeLock`, not `lock`.
    private func writeTaken() {
        defer { taken.removeAll() }
        taken.withBytes(writeToDestinations)
    }

    /// Writes records to every destination; under `writeLock`.
    private func writeToDestinations(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        for destination in destinations {
            // Not said when stderr itself fails: the warning would go there.
            if let reason = destination.write(bytes), destination.fd != STDERR_FILENO {
                logger?.warning("trace: writing the file failed (\(reason)); it stops here")
            }
        }
    }

    /// The wall clock now, in whole milliseconds since 1970.
    private static func millisecondsSince1970() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// The connection's session has ended: its forms' secret values are kept no longer.
    func connectionEnded(_ connection: TracedConnection) {
        connection.secrets.withLock { $0 = TracedConnection.FormSecrets() }
        writeLock.withLock {
            lock.withLock(takePending)
            writeTaken()
        }
    }

    /// A message in, redacted: a field that is secret in any kind is taken as secret.
    private func redactedIn(_ json: JSON, connection: TracedConnection) -> JSON {
        if let method = json["method"]?.string, method == FormCloseRequest.method || method == FormSubmitRequest.method {
            let form = json["params"]?["form"]?.string ?? Server.defaultFormID
            connection.secrets.withLock { secrets in
                if method == FormCloseRequest.method {
                    secrets.close(form)
                } else {
                    secrets.submit(form, namesAskedAbout: namesAskedAbout)
                }
            }
        }
        return redaction.redacting(json) { text, place in
            guard redaction.isSecretField(named: place.field) else { return nil }
            connection.secrets.withLock { $0.note(text, ofField: place.field, inForm: place.form ?? Server.defaultFormID) }
            return Self.secret
        }
    }

    /// A message out, with the members that name a secret, secrets asked about, and the secret
    /// values the form it is about was submitted with hidden.
    private func redactedOut(_ json: JSON, connection: TracedConnection) -> JSON {
        let form = json["params"]?["form"]?.string
        let (asked, echoes) = connection.secrets.withLock { secrets in
            (secrets.asked, form.flatMap { secrets.submitted[$0] })
        }
        guard !asked.isEmpty || echoes != nil else { return Self.hidingSecretMembers(json) }
        return Self.hidingSecretMembers(json.mappingStrings { text in
            asked.contains(text) ? Self.secret : echoes?.replacingOccurrences(in: text) { _ in Self.secret } ?? text
        })
    }

    /// A message out with the members that name a secret hidden (an account's token), but flags
    /// (a field description's `"secret":true`).
    private static func hidingSecretMembers(_ json: JSON) -> JSON {
        switch json {
        case .object(let members):
            return .object(members.map { member in
                switch member.value {
                case .bool, .null: member
                case _ where SecretRedaction.namesSecretMember(member.key): JSON.Member(key: member.key, value: .string(secret))
                default: JSON.Member(key: member.key, value: hidingSecretMembers(member.value))
                }
            })
        case .array(let elements): return .array(elements.map(hidingSecretMembers))
        default: return json
        }
    }
}
