import SignupCore
import SignupProtocol
import SignupServer
import SignupTransport

/// A server on a virtual clock, driven in process, optionally recording itself: what the fuzzer,
/// a replay, a fixture run and a marble diagram run on.
package final class InProcessSession {
    package let scheduler = VirtualTimeScheduler()
    package let server: Server
    let recorder: SessionRecorder?
    private let collector = BufferSink()

    /// Everything the server wrote, one message per line.
    package var output: [UInt8] { collector.bytes }

    /// Every message the server wrote, in order, each without its newline.
    package var messages: [[UInt8]] {
        output.split(separator: 0x0A).map(Array.init)
    }

    package init(configuration: ServerConfiguration, services makeServices: (VirtualTimeScheduler) -> FormServices, recording: Bool) {
        let catalog = FormCatalog(definitions: FormCatalog.builtIn.definitions + configuration.customForms)
        var services = makeServices(scheduler)
        var sink: any MessageSink = collector
        if recording {
            let scheduler = scheduler
            let recorder = SessionRecorder(destination: .memory, configuration: configuration, catalog: catalog, services: services,
                                           now: { scheduler.now.milliseconds })
            (services, sink) = recorder.observing(services, sendingTo: collector)
            self.recorder = recorder
        } else {
            recorder = nil
        }
        server = Server(configuration: configuration, clock: .virtual(scheduler), services: services, sink: sink, catalog: catalog)
        recorder?.attach(to: server)
    }

    deinit {
        server.closeAllForms()
    }

    func handle(_ item: InputItem) {
        guard server.exitCode == nil else { return }
        recorder?.recordIn(item)
        server.handle(item)
    }

    /// Moves the virtual clock to `time` (never back), running what is due by then; when
    /// `holdingWorkDueThen`, what is due at `time` itself waits for the next advance.
    package func advance(to time: Int64, holdingWorkDueThen: Bool = false) {
        guard time >= scheduler.now.milliseconds else { return }
        if holdingWorkDueThen {
            scheduler.advance(toJustBefore: TimePoint(milliseconds: time))
        } else {
            scheduler.advance(to: TimePoint(milliseconds: time))
        }
    }

    /// The recording so far, ended with `reason`.
    package func recording(endingWith reason: String) -> [UInt8] {
        recorder?.recordEnd(reason)
        return recorder?.bytes ?? []
    }
}

/// Collects output bytes in memory, each message followed by its newline.
final class BufferSink: MessageSink {
    private(set) var bytes: [UInt8] = []

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        bytes.append(contentsOf: message)
        bytes.append(0x0A)
    }
}
