import Foundation
import SignupBackends
import SignupCore
import SignupTransport

/// The process: the store and the backends every session shares, the clock, signals, start-up and
/// exit. It serves one client on stdio, or every client that connects to a socket (`--listen`),
/// each its own `ClientSession`. Made and used on its loop only.
final class ServerProcess {
    private let loop: EventLoop
    private let environment: SessionEnvironment
    private let logger: Logger
    /// The durable store, if any: closed as the process ends (SQLite folds its log into its
    /// file; PostgreSQL's connections end).
    private let store: (any AccountStore)?
    private var sessions: [ObjectIdentifier: ClientSession] = [:]
    private var isStopping = false
    private var listener: Listener?
    private var timers: [any DispatchSourceProtocol] = []

    /// Opens the store and builds the shared backends, on the loop. Fails when the user store
    /// cannot be opened.
    init(configuration: ServerConfiguration, loop: EventLoop, sessionsHaveTheirOwnClock: Bool,
         makeMirror: SessionMirrorMaker?) throws(StoreError) {
        loop.assertOnLoop()
        self.loop = loop
        let logger = Logger(level: configuration.logLevel)
        self.logger = logger
        let store: (any AccountStore)? = switch configuration.backend {
        case .store(let path): try UserStore(path: path)
        case .postgres(let conninfo): try PostgresStore(conninfo: conninfo)
        case .scripted, .http: nil
        }
        self.store = store
        for pair in store?.lookAlikesFoundByMigration ?? [] {
            logger.warning("store: the registered usernames \(pair) look alike; both are kept, and no new name like them can register")
        }
        let catalog = FormCatalog(definitions: FormCatalog.builtIn.definitions + configuration.customForms)
        for line in catalog.definitions.flatMap(\.missingRequirements) { logger.warning(line) }
        let clock = configuration.clock.makeClock(loop: loop)
        var services = Self.services(for: configuration, clock: clock, loop: loop, store: store)
        services.loginLimiter = LoginRateLimiter(scheduler: clock.scheduler)
        let traceDestinations = [configuration.traceFile, configuration.logLevel == .debug ? 2 : nil].compactMap { $0 }
        environment = SessionEnvironment(
            configuration: configuration, loop: loop, logger: logger, catalog: catalog, services: services, clock: clock,
            checkBudgets: configuration.checkBudget.budgets(on: clock.scheduler),
            tracer: traceDestinations.isEmpty ? nil : Tracer(
                destinations: traceDestinations, forms: catalog.definitions,
                maxDepth: configuration.limits.maxDepth, logger: logger),
            sessionsHaveTheirOwnClock: sessionsHaveTheirOwnClock, makeMirror: makeMirror)
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

    // MARK: Serving

    /// Serves the one client on stdin and `messageFD`; the process ends as that session does, with
    /// the code its `exit` asked for.
    func serveStdio(messageFD: Int32) {
        let configuration = environment.configuration
        let endpoint = ClientSession.Endpoint(readFD: STDIN_FILENO, writeFD: messageFD, socket: nil,
                                              recordFile: configuration.recordFile)
        let session = ClientSession(environment: environment, endpoint: endpoint) { [self] _, code in exit(code) }
        sessions[ObjectIdentifier(session)] = session
        watchForTheEnd { session in
            guard let pid = session.server.clientProcessID ?? configuration.parentProcessID, !ProcessWatch.isAlive(pid) else { return }
            session.stop(reason: "the client process \(pid) has exited")
        }
        session.start()
    }

    /// Serves every client that connects to `listener`, each a session of its own whose socket
    /// `poller` reads and writes, until a signal. `recordings`, when given, names each
    /// connection's recording by its number.
    func serve(_ listener: Listener, polledBy poller: SocketPoller, recordings: RecordingFiles?) {
        self.listener = listener
        let parent = environment.configuration.parentProcessID
        watchForTheEnd { [self] _ in
            guard let parent, !ProcessWatch.isAlive(parent) else { return }
            stop(reason: "the parent process \(parent) has exited")
        }
        let bound = LoopBound(self, loop: loop)
        listener.acceptConnections { fd, number in
            bound.execute { $0.open(fd, number: number, polledBy: poller, recordings: recordings) }
        }
    }

    /// A new connection's session, or none when the process is stopping or the recording cannot be created.
    private func open(_ fd: Int32, number: Int, polledBy poller: SocketPoller, recordings: RecordingFiles?) {
        guard !isStopping else { close(fd); return }
        guard sessions.count < environment.configuration.maxConnections else {
            logger.warning("connection \(number) refused: \(sessions.count) clients are connected, the most --max-connections allows")
            close(fd)
            return
        }
        var recordFile: Int32?
        if let recordings {
            guard let file = recordings.create(number: number, logger: logger) else { close(fd); return }
            recordFile = file
        }
        let endpoint = ClientSession.Endpoint(readFD: fd, writeFD: fd, socket: PolledSocket(fd, poller: poller),
                                              recordFile: recordFile, number: number, peer: PeerAddress.budgetKey(of: fd))
        let session = ClientSession(environment: environment, endpoint: endpoint) { [self] session, _ in
            if let recordFile { close(recordFile) }
            sessionEnded(session)
        }
        sessions[ObjectIdentifier(session)] = session
        logger.info("connection \(number) opened (\(sessions.count) open)")
        session.start()
    }

    private func sessionEnded(_ session: ClientSession) {
        sessions[ObjectIdentifier(session)] = nil
        logger.info("a connection closed (\(sessions.count) open)")
        if isStopping && sessions.isEmpty { exit(0) }
    }

    // MARK: Ending

    /// Signals stop every session; `check` runs on each session every second (the client's death).
    private func watchForTheEnd(check: @escaping (ClientSession) -> Void) {
        let bound = LoopBound(self, loop: loop)
        TerminationSignals.watch { signal in bound.execute { $0.stop(reason: "signal \(signal)") } }
        clientCheck = check
        timers.append(loop.every(.seconds(1)) {
            bound.execute { process in process.sessions.values.forEach(process.clientCheck) }
        })
    }

    /// What runs on each session every second: whether its client process (or the parent) lives.
    private var clientCheck: (ClientSession) -> Void = { _ in }

    /// Stops taking connections, and every session as one ends on a signal; the process exits
    /// once the last has ended.
    private func stop(reason: String) {
        guard !isStopping else { return }
        isStopping = true
        listener?.close()
        if sessions.isEmpty { return exit(0) }
        for session in Array(sessions.values) { session.stop(reason: reason) }
    }

    private func exit(_ code: Int32) {
        listener?.removeSocketFile()
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
