import SignupCore
import SignupProtocol
import SignupTransport

/// A session's `MessageSink`: encodes what the server sends and hands it to the connection's
/// writer (`ConnectionWriter`), which writes each message whole on its own thread. On the virtual
/// clock a notification is handed over unencoded (`DeferredNotifications`) and encoded on the
/// writer's thread; on the real clock it is encoded here, on the loop.
final class SessionWriter: MessageSink, @unchecked Sendable {
    // Unchecked Sendable: its threads' state is the connection writer's; what is here is touched
    // on the loop only.
    static let highWater = ConnectionWriter.highWater

    let connection: ConnectionWriter
    private let loop: EventLoop
    /// Whether notifications go to the writer thread unencoded (`ConnectionWriter.takesDeferredOutput`,
    /// fixed for the connection's life).
    private let defersNotifications: Bool
    /// Whether notifications handed over unencoded say which need a trace's screening.
    private let tellsScreening: Bool
    /// Where a notification is encoded when the queue needs its bytes; used on the loop only.
    private var scratch = JSONWriter(capacity: 1024)
    /// Notifications sent during the loop's current work, handed to the queue together at its
    /// end (or before any other message): one lock for them all rather than one each.
    /// Touched on the loop only.
    private var unsent = UnsentNotifications()
    /// What notifications carry in place of their field results. Touched on the loop only; the
    /// writer thread reads its `table`.
    private let fieldResults = EncodedFieldResults()
    /// Messages sent while the loop's current work gathers them (`gatheringWrites`), nil when it
    /// does not; between gatherings, the storage waits in `spareGathered`. On the loop only.
    private var gathered: GatheredMessages?
    private var spareGathered: GatheredMessages? = GatheredMessages()

    /// With the real clock, where timeliness counts, field events are conflated while the client
    /// lags and a small message that finds nothing waiting is written at once by the loop. With
    /// the virtual clock nothing is dropped, output is batched, and notifications are encoded by
    /// the writer thread, off the loop. Other messages sent on `loop` wake the writer once that
    /// loop's current work is done. `tee`, given only where the clock has every message written
    /// in order, is handed every run of lines before it is written; `tracer` too (`Tracer.traceOut`).
    init(fd: Int32, polledBy socket: PolledSocket? = nil, clock: ClockMode, framing: FramingChoice = FramingChoice(.lines),
         tracer: (@Sendable (UnsafeRawBufferPointer, LineScreening) -> Void)? = nil,
         tee: OutputTee? = nil, loop: EventLoop) {
        precondition(tee == nil || clock.writesEveryMessageInOrder, "a tee sees every message written")
        self.loop = loop
        let mirror: (@Sendable (UnsafeRawBufferPointer, LineScreening) -> Void)? = switch (tee, tracer) {
        case (nil, nil): nil
        case (let tee?, nil): { run, _ in tee.publish(run) }
        case (nil, let tracer?): tracer
        case (let tee?, let tracer?): { run, screening in tee.publish(run); tracer(run, screening) }
        }
        tellsScreening = tracer != nil
        connection = ConnectionWriter(
            fd: fd, polledBy: socket, conflates: clock.conflatesOutput, writesDirectlyWhenIdle: clock.writesDirectlyWhenIdle,
            framing: framing, mirror: mirror, deferWake: { loop.execute($0) })
        defersNotifications = connection.takesDeferredOutput
    }

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        handOverNotifications()
        if gathered != nil {
            gathered!.append(message, key: conflationKey())
        } else {
            connection.send(message, conflationKey: conflationKey())
        }
    }

    /// A field's change is sent with its name and result from `fieldResults`, not its event:
    /// encoded once, and, for the writer to encode, holding no object both threads would count.
    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        // The update is moved out of the event, not copied: that retained its texts once more.
        let notification: FormNotification
        switch consume event {
        case .fieldChanged(let update):
            guard let entry = fieldResults.entry(for: update) else {
                notification = FormNotification(form: form, event: .fieldChanged(update), at: time, submit: submit)
                break
            }
            guard defersNotifications else {
                // Encoded now, on the loop, from the entry's members.
                scratch.removeAll()
                entry.members.withUnsafeBytes {
                    Notifications.writeFieldChanged(form: form, members: $0, version: update.version, at: time, to: &scratch)
                }
                return scratch.withBytes { send($0, conflationKey: ConflationKey(group: form, topic: entry.field)) }
            }
            notification = FormNotification(form: form, fieldResult: entry.number, version: update.version, at: time)
        case let other:
            notification = FormNotification(form: form, event: other, at: time, submit: submit)
        }
        guard defersNotifications else { return send(notification, encodingInto: &scratch) }
        keep(notification)
    }

    /// Keeps a notification for the writer to encode; on the loop only.
    @inline(__always)
    private func keep(_ notification: consuming FormNotification) {
        // Added to the batch moved out of the writer, so that no access to `unsent` spans the
        // array's growth: the compiler then checks them all statically, not at run time.
        var batch = UnsentNotifications()
        swap(&batch, &unsent)
        let added = batch.add(notification)
        swap(&batch, &unsent)
        switch added {
        case .first: loop.execute { [self] in handOverNotifications() }
        case .full: handOverNotifications()
        case .more: break
        }
    }

    /// Runs `body`, gathering the messages it sends where the loop may write them itself (the
    /// real clock), then hands them to the connection together (`ConnectionWriter.send(lines:ending:)`):
    /// in one `write(2)` when they fit one and the writer is idle, so a message sent in reply to
    /// another costs no write of its own. Nested, only the outermost hands over. On the loop only.
    func gatheringWrites(_ body: () -> Void) {
        guard connection.writesDirectlyWhenIdle, gathered == nil else { return body() }
        swap(&gathered, &spareGathered)
        body()
        handOverGathered()
        swap(&gathered, &spareGathered)
    }

    /// Hands what was gathered so far to the connection, and goes on gathering; on the loop only.
    private func handOverGathered() {
        guard gathered?.bytes.isEmpty == false else { return }
        gathered!.bytes.withUnsafeBytes { connection.send(lines: $0, ending: gathered!.messages) }
        gathered!.removeAll()
    }

    /// Hands everything sent so far to the writer: the notifications kept for it, and what is
    /// being gathered; on the loop only.
    private func handOverPending() {
        handOverNotifications()
        handOverGathered()
    }

    /// Hands the notifications sent so far to the writer; on the loop only.
    @inline(__always)
    func handOverNotifications() {
        if !unsent.isEmpty { handOver() }
    }

    private func handOver() {
        guard let batch = unsent.take() else { return }
        connection.send(deferred: DeferredNotifications(batch, fields: fieldResults.table, tellsScreening: tellsScreening))
    }

    /// Hands everything sent so far to the writer and wakes it now, rather than after the loop's
    /// current work; on the loop only, before it waits on something that waits on the writer.
    func handOverEverything() {
        handOverPending()
        connection.wakeNow()
    }

    /// Runs `action` once no more than `limit` bytes wait to be written; on the loop only.
    func whenDrained(below limit: Int, _ action: @escaping @Sendable () -> Void) {
        handOverPending()
        connection.whenDrained(below: limit, action)
    }

    /// Runs `action` on the writer thread as it ends, after `close()` (`ConnectionWriter.whenStopped`).
    func whenStopped(_ action: @escaping @Sendable () -> Void) {
        connection.whenStopped(action)
    }

    /// Runs `action` once when a write finds that the client has gone (`ConnectionWriter.whenClientGone`).
    func whenClientGone(_ action: @escaping @Sendable () -> Void) {
        connection.whenClientGone(action)
    }

    /// Writes what was sent so far, then ends the writer thread; on the loop only. A message sent
    /// after this is dropped.
    func close() {
        handOverPending()
        connection.close()
    }

    /// Blocks until everything sent so far is written (or the client has gone), or until the
    /// client has taken nothing for `stall`; says whether it was all written. On the loop only.
    func flush(givingUpAfter stall: TimeSpan) -> Bool {
        handOverPending()
        return connection.flush(givingUpAfter: .milliseconds(stall.milliseconds))
    }
}

/// Whole messages, each followed by `\n`, with where each ends (after its newline) and its
/// conflation key, as the connection takes them together.
struct GatheredMessages {
    private(set) var bytes: [UInt8] = []
    private(set) var messages: [(end: Int, key: ConflationKey?)] = []

    mutating func append(_ message: UnsafeRawBufferPointer, key: ConflationKey?) {
        bytes.append(contentsOf: message)
        bytes.append(0x0A)
        messages.append((bytes.count, key))
    }

    /// Empties it, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        messages.removeAll(keepingCapacity: true)
    }
}
