import Foundation
import SignupCore

/// Wires the server to the process: stdin lines in, messages out on the guarded stdout, and the
/// process's end (at end of input, on `exit`, or when the client stops reading).
final class StdioService {
    /// How long the end of input in real time waits for submissions and checks in flight.
    static let drainTimeout: TimeSpan = .seconds(10)

    private let loop: EventLoop
    private let server: Server
    private let writer: StdoutWriter
    private let logger: Logger
    private var drainDeadline: TimePoint?

    /// Builds everything on the loop; call from the loop only. Fails when the user store cannot be opened.
    init(configuration: ServerConfiguration, loop: EventLoop, messageFD: Int32) throws(StoreError) {
        self.loop = loop
        logger = Logger(level: configuration.logLevel)
        let logger = self.logger
        writer = StdoutWriter(fd: messageFD, loop: loop) {
            logger.info("the client closed stdout; exiting")
            Foundation.exit(0)
        }
        let clock: Server.Clock = configuration.clock == .virtual
            ? .virtual(VirtualTimeScheduler())
            : .real(RealTimeScheduler(loop: loop))
        let services = try Self.services(for: configuration, clock: clock, loop: loop)
        server = Server(configuration: configuration, clock: clock, services: services, sink: writer)
    }

    private static func services(
        for configuration: ServerConfiguration, clock: Server.Clock, loop: EventLoop
    ) throws(StoreError) -> FormServices {
        switch configuration.backend {
        case .scripted:
            return FormServices(directory: ScriptedDirectory(script: configuration.script, scheduler: clock.scheduler))
        case .store(let path):
            let store = try UserStore(path: path)
            let runner: any BlockingWorkRunner = switch clock {
            case .virtual(let scheduler): InlineWorkRunner(scheduler: scheduler)
            case .real: BackgroundWorkRunner(loop: loop)
            }
            return FormServices(directory: SQLiteDirectory(store: store, runner: runner))
        case .http(let template, let signupURL):
            return FormServices(directory: HTTPDirectory(
                configuration: .init(availabilityTemplate: template, signupURL: signupURL, timeout: configuration.httpTimeout),
                loop: loop))
        }
    }

    /// Starts reading stdin; the process ends from the loop.
    func start() {
        let transfer = UncheckedTransfer(self)
        let loop = self.loop
        let reader = StdinReader(maxLineBytes: server.configuration.limits.maxLineBytes) { items, isEnd, done in
            loop.execute {
                transfer.value.handle(items, isEnd: isEnd)
                done()
            }
        }
        reader.start()
    }

    private func handle(_ items: [InputItem], isEnd: Bool) {
        for item in items {
            switch item {
            case .line(let bytes): bytes.withUnsafeBufferPointer { server.handle(line: $0) }
            case .oversizeLine: server.handleOversizeLine()
            case .truncatedLine: server.handleTruncatedLine()
            }
            if let code = server.exitCode { finish(code) }
        }
        if isEnd { endOfInput() }
    }

    private func endOfInput() {
        logger.debug("end of input")
        switch server.clock {
        case .virtual:
            server.runToIdle()
            finish(0)
        case .real(let scheduler):
            drainDeadline = scheduler.now + Self.drainTimeout
            drain(scheduler)
        }
    }

    /// Waits (in real time, without blocking the loop) for submissions and checks in flight, up to
    /// the deadline, so a piped edit still gets its answer.
    private func drain(_ scheduler: RealTimeScheduler) {
        if !server.hasWorkInFlight { return finish(0) }
        if let deadline = drainDeadline, scheduler.now >= deadline {
            logger.warning("work still in flight after \(Self.drainTimeout); exiting without their outcome")
            return finish(0)
        }
        scheduler.schedule(after: .milliseconds(10)) { [self] in drain(scheduler) }
    }

    private func finish(_ code: Int32) {
        writer.flush()
        Foundation.exit(code)
    }
}
