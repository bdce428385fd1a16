import SignupBackends
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
import SignupTransport

/// One event the server sent, as a value: the form, what happened and when.
struct SentEvent: Equatable, CustomStringConvertible {
    var form: String
    var event: FormEvent
    var at: Int64

    var description: String { "\(at) \(form) \(event)" }
}

/// Keeps what the server sends as values: its events unencoded, its other messages as text.
final class EventCollectingSink: MessageSink {
    private(set) var events: [SentEvent] = []
    private(set) var messages: [String] = []

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        messages.append(String(decoding: message, as: UTF8.self))
    }

    func send(_ event: consuming FormEvent, of form: String, at time: Int64, submit: FormNotification.Submit) {
        events.append(SentEvent(form: form, event: event, at: time))
    }

    func takeEvents() -> [SentEvent] {
        defer { events.removeAll() }
        return events
    }
}

/// The server on typed values, in the manner of NIO's `EmbeddedChannel`: a request in as its
/// type, its result out as its type, the events it caused read as values, and time moved by
/// hand on a virtual clock. No bytes, no threads.
final class EmbeddedServer {
    let sink = EventCollectingSink()
    let scheduler = VirtualTimeScheduler()
    let server: Server

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
        server = ServerHarness.server(on: scheduler, sendingTo: sink, configure: configure)
    }

    /// Writes a request in and reads its result out.
    func send<Method: ServerMethod>(_ request: Method) throws(RPCError) -> Method.Response {
        try server.answer(request)
    }

    /// The events sent since the last read, in order.
    func readEvents() -> [SentEvent] {
        sink.takeEvents()
    }

    /// Moves the virtual clock on, running everything due.
    func advance(by milliseconds: Int64) {
        scheduler.advance(to: TimePoint(milliseconds: scheduler.now.milliseconds + milliseconds))
    }
}
