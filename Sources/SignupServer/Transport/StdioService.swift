import Foundation
import SignupCore

/// Wires the server to the process: stdin lines in, messages out through the writer thread, and
/// the process's end: at end of input, on `exit`, on SIGTERM or SIGINT, when the client's process
/// dies, or when the client stops reading for good (EPIPE).
final class StdioService {
    /// How long the end (of input, or by signal) waits in real time for work in flight.
    static let drainTimeout: TimeSpan = .seconds(10)

    private let loop: EventLoop
    private let server: Server
    private let writer: StdoutWriter
    private let logger: Logger
    private let parentProcessID: Int32?
    // Unchecked: changed only here, on the loop, by calls that call out to nothing; checked, each
    // line's swap cost about 80 instructions at run time.
    @exclusivity(unchecked) private var pending: [InputItem] = []
    /// The next item of `pending` to handle; items before it are done.
    private var nextPending = 0
    private var pendingIsEnd = false
    private var pendingDone: (@Sendable () -> Void)?
    private var isStopping = false
    private var keepAlive: [any DispatchSourceProtocol] = []
    /// The durable store, if any: closed as the process ends (SQLite folds its log into its
    /// file; PostgreSQL's connections end).
    private let store: (any AccountStore)?
    /// The framing of both directions, decided by the reader from the first bytes under `auto`.
    private let framing: FramingChoice
    /// Every message in and out, when `--trace` or `--log-level debug` asks for it.
    private let tracer: Tracer?
    /// The session, when `--record` asks for it.
    private let recorder: SessionRecorder?
    /// Why the process ends, for the recording's last line.
    private var endReason = "input"

    /// Builds everything on the loop; call from the loop only. Fails when the user store cannot be opened.
    init(configuration: ServerConfiguration, loop: EventLoop, messageFD: Int32) throws(StoreError) {
        self.loop = loop
        logger = Logger(level: configuration.logLevel)
        parentProcessID = configuration.parentProcessID
        let logger = self.logger
        let store: (any AccountStore)? = switch configuration.backend {
        case .store(let path): try UserStore(path: path)
        case .postgres(let conninfo): try PostgresStore(conninfo: conninfo)
        case .scripted, .http: nil
        }
        self.store = store
        for pair in store?.lookAlikesFoundByMigration ?? [] {
            logger.warning("store: the registered usernames \(pair) look alike; both are kept, and no new name like them can register")
        }
        framing = FramingChoice(configuration.framing)
        let catalog = FormCatalog(definitions: FormCatalog.builtIn.definitions + configuration.customForms)
        let traceDestinations = [configuration.traceFile, configuration.logLevel == .debug ? 2 : nil].compactMap { $0 }
        tracer = traceDestinations.isEmpty ? nil : Tracer(
            destinations: traceDestinations,
            forms: catalog.definitions,
            maxDepth: configuration.limits.maxDepth, logger: logger)
        // How it batches and whether it may conflate follow the clock (`ClockPolicy.swift`).
        // Where the writer writes every message, a recording copies each one as written.
        let tee = configuration.recordFile != nil && configuration.clock.writesEveryMessageInOrder ? OutputTee() : nil
        writer = StdoutWriter(fd: messageFD, clock: configuration.clock, framing: framing, tracer: tracer, tee: tee, loop: loop)
        let clock = configuration.clock.makeClock(loop: loop)
        var services = Self.services(for: configuration, clock: clock, loop: loop, store: store)
        var sink: any MessageSink = writer
        if let recordFile = configuration.recordFile {
            let scheduler = clock.scheduler
            let recorder = SessionRecorder(destination: .file(recordFile), configuration: configuration, catalog: catalog,
                                           services: services, tee: tee, logger: logger, now: { scheduler.now.milliseconds })
            recorder.flushSink = { [writer] in writer.handOverEverything() }
            // In real time each piece of work's records are written when it is done, so a session
            // killed outright loses at most the work it was in; virtual time writes as the buffer fills.
            if configuration.clock == .real {
                recorder.flushAfterWork = { flush in loop.executeTransferring(flush) }
            }
            (services, sink) = recorder.observing(services, sendingTo: writer)
            self.recorder = recorder
        } else {
            recorder = nil
        }
        server = Server(configuration: configuration, clock: clock, services: services, sink: sink,
                        catalog: catalog)
        recorder?.findSecretFields(in: server)
    }

    /// The backend the configuration names: the store already opened, the HTTP directory, or the
    /// scripted one.
    private static func services(
        for configuration: ServerConfiguration, clock: Server.Clock, loop: EventLoop, store: (any AccountStore)?
    ) -> FormServices {
        let tokens = configuration.clock.tokens(seed: configuration.script.seed)
        // Every backend asks `http` checks the scripted directory does not answer over the network.
        let http = HTTPChecks(loop: loop), submissions = HTTPSubmissions(loop: loop)
        if let store {
            func directory(_ store: some AccountStore) -> FormServices {
                let directory = StoreDirectory(store: store, runner: clock.blockingWorkRunner(loop: loop), tokens: tokens,
                                               sharedChecksPerMinute: configuration.checkBudget.store)
                return FormServices(directory: directory, http: http, submissions: submissions)
            }
            return directory(store)
        }
        if case .http(let endpoints) = configuration.backend {
            return FormServices(directory: HTTPDirectory(configuration: endpoints, loop: loop), http: http, submissions: submissions)
        }
        return FormServices(directory: ScriptedDirectory(
            script: configuration.script, scheduler: clock.scheduler, tokens: tokens, recordsRequests: false), http: http, submissions: submissions)
    }

    /// Starts reading stdin and watching for signals and the client's death; the process ends from the loop.
    func start() {
        let transfer = UncheckedTransfer(self)
        let loop = self.loop
        TerminationSignals.watch { signal in
            loop.execute { transfer.value.stop(reason: "signal \(signal)") }
        }
        // A client that closes stdout ends the session as a signal does: submissions in flight
        // finish (and are stored), and a recording gets every message sent and its end.
        writer.whenClientGone {
            loop.execute { transfer.value.stop(reason: "the client closed stdout") }
        }
        keepAlive.append(loop.every(.seconds(1)) { transfer.value.checkClientIsAlive() })
        // Synchronously, `sync` runs the loop's work on the reader's thread once the loop is free.
        let handsOverSynchronously = server.configuration.clock.handsInputOverSynchronously
        let limits = server.configuration.limits
        let reader = StdinReader(
            framing: framing, maxLineBytes: limits.maxLineBytes, editsMaxDepth: limits.maxDepth,
            fieldNames: KnownFieldNames(server.catalog), keepsEditLines: recorder != nil
        ) { batch, isEnd, done in
            if handsOverSynchronously {
                loop.sync { transfer.value.receive(batch, isEnd: isEnd, done: done) }
            } else {
                loop.execute { transfer.value.receive(batch, isEnd: isEnd, done: done) }
            }
        }
        reader.start()
    }

    // MARK: Input

    private func receive(_ batch: InputBatch, isEnd: Bool, done: @escaping @Sendable () -> Void) {
        if let kept = batch.keptEditLines { recorder?.willTake(kept) }
        let items = batch.take()
        // Usually everything before has been handled: then the batch's storage is taken as it is,
        // not copied item by item (which retained and later released every string in it).
        if nextPending == pending.count {
            pending = consume items
        } else {
            pending.removeFirst(nextPending)
            pending += items
        }
        nextPending = 0
        pendingIsEnd = isEnd
        pendingDone = done
        process()
    }

    /// Handles waiting input unless a shutdown is draining; then lets the reader go on once the
    /// outgoing queue is below its bound, so a client that stops reading stops our reading too.
    private func process() {
        guard !isStopping else { return }
        while nextPending < pending.count {
            if server.isDraining { return waitForDrain() }
            // Moved out, leaving a placeholder with nothing to release, rather than copied.
            var item = InputItem.oversizeLine
            swap(&item, &pending[nextPending])
            nextPending += 1
            tracer?.traceIn(item)
            recorder?.recordIn(item)
            server.handle(consume item)
            if let code = server.exitCode {
                endReason = "exit"
                return finish(code)
            }
        }
        if server.isDraining { return waitForDrain() }
        if pendingIsEnd { return endOfInput() }
        if let done = pendingDone {
            pendingDone = nil
            writer.whenDrained(below: StdoutWriter.highWater, done)
        }
    }

    /// Polls (without blocking the loop) until the shutdown's submissions have finished.
    private func waitForDrain(deadline: TimePoint? = nil) {
        guard case .real(let scheduler) = server.clock else { return }
        let deadline = deadline ?? scheduler.now + Self.drainTimeout
        let expired = scheduler.now >= deadline
        if server.finishDraining(force: expired) {
            if expired { logger.warning("shutdown: submissions still in flight after \(Self.drainTimeout); answering anyway") }
            return process()
        }
        scheduler.schedule(after: .milliseconds(10)) { [self] in waitForDrain(deadline: deadline) }
    }

    // MARK: Ending

    private func endOfInput() {
        logger.debug("end of input")
        switch server.clock {
        case .virtual:
            server.runToIdle()
            finish(0)
        case .real(let scheduler):
            settle(scheduler, deadline: scheduler.now + Self.drainTimeout, until: { !$0.hasWorkInFlight })
        }
    }

    /// Stops reading, lets submissions in flight finish (bounded), writes everything, exits 0.
    private func stop(reason: String) {
        guard !isStopping else { return }
        isStopping = true
        endReason = reason.hasPrefix("signal") ? "signal" : "clientGone"
        logger.info("\(reason): finishing submissions in flight, then exiting")
        switch server.clock {
        case .virtual:
            _ = server.settleSubmissions()
            finish(0)
        case .real(let scheduler):
            settle(scheduler, deadline: scheduler.now + Self.drainTimeout, until: { !$0.hasSubmissionsInFlight })
        }
    }

    private func settle(_ scheduler: RealTimeScheduler, deadline: TimePoint, until isSettled: @escaping (Server) -> Bool) {
        if isSettled(server) { return finish(0) }
        if scheduler.now >= deadline {
            logger.warning("work still in flight after \(Self.drainTimeout); exiting without its outcome")
            return finish(0)
        }
        scheduler.schedule(after: .milliseconds(10)) { [self] in settle(scheduler, deadline: deadline, until: isSettled) }
    }

    private func checkClientIsAlive() {
        guard let pid = server.clientProcessID ?? parentProcessID, !ProcessWatch.isAlive(pid) else { return }
        stop(reason: "the client process \(pid) has exited")
    }

    private func finish(_ code: Int32) {
        // Everything is written before the recording ends, as its encoder copies messages as
        // written; a client that has taken nothing for the drain timeout gets (and the recording
        // holds) no more, so a stuck client cannot keep the process from ending.
        if !writer.flush(givingUpAfter: Self.drainTimeout) {
            logger.warning("the client has read nothing for \(Self.drainTimeout); exiting without writing the rest")
            recorder?.tee?.close()
        }
        recorder?.recordEnd(endReason)
        store?.close()
        Foundation.exit(code)
    }
}

/// Whether a process still runs (a zombie counts as gone).
enum ProcessWatch {
    static func isAlive(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }
}
