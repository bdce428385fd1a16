import Foundation
import SignupCore
import SignupProtocol
import SignupTransport

/// One client: its connection's reader and writer, its `Server` (forms, `initialize` … `exit`),
/// its trace and recording, and how it ends — at end of input, on `exit`, when the process stops
/// it (a signal, a client process that died), or when the client stops reading for good (EPIPE).
/// Made, run and ended on the process's loop; whatever reaches it from another thread comes
/// through a `LoopBound`, which checks that in release builds too.
final class ClientSession {
    /// How long the end (of input, or by signal) waits in real time for work in flight.
    static let drainTimeout: TimeSpan = .seconds(10)

    /// Where a client's messages come from and go to.
    package struct Endpoint {
        var readFD: Int32
        var writeFD: Int32
        /// A socket (`--listen`), read and written on its poller's thread; it is shut down to wake
        /// its reader and writer as the session ends, and closed once both have stopped. Nil for
        /// stdio, which belongs to the process (it exits instead) and has a thread each way.
        var socket: PolledSocket?
        var isSocket: Bool { socket != nil }
        /// Where `--record` writes this client's session.
        var recordFile: Int32?
        /// The connection's number under `--listen`, from 1 as they connect; nil on stdio.
        var number: Int? = nil
        /// The remote peer's budget key (`PeerAddress`); nil on stdio and for a local peer.
        var peer: String? = nil

        /// Whose check budget the session spends until a trusted frontend names its client.
        var clientKey: String {
            if let peer { return peer }
            return number.map { "connection:\($0)" } ?? "stdio"
        }
    }

    let loop: EventLoop
    private let environment: SessionEnvironment
    private let endpoint: Endpoint
    let server: Server
    private let writer: SessionWriter
    private let logger: Logger
    private var input = PendingInput()
    private var isStopping = false
    private var isFinished = false
    /// The parts of a socket session that have stopped (reader, writer); at both, the socket closes.
    private var stoppedParts = 0
    /// The framing of both directions, decided by the reader from the first bytes under `auto`.
    private let framing: FramingChoice
    /// Where every message in and out goes, when `--trace` or `--log-level debug` asks for it,
    /// and the connection as the trace knows it.
    private let trace: (tracer: Tracer, connection: TracedConnection)?
    /// The session's recording, when `--record` asks for it.
    private let recorder: (any SessionMirror)?
    /// Every message as written, for the recording, on a clock where each is written in order.
    private let tee: OutputTee?
    /// Why the session ends, for the recording's last line.
    private var endReason = "input"
    /// Told once, on the loop, when the session has ended, with the code its `exit` asked for.
    private let ended: (ClientSession, Int32) -> Void

    /// Builds the session on the loop.
    init(environment: SessionEnvironment, endpoint: Endpoint, ended: @escaping (ClientSession, Int32) -> Void) {
        let loop = environment.loop
        loop.assertOnLoop()
        let configuration = environment.configuration
        self.loop = loop
        self.environment = environment
        self.endpoint = endpoint
        self.ended = ended
        logger = environment.logger
        framing = FramingChoice(configuration.framing)
        trace = environment.tracer.map { ($0, TracedConnection(number: endpoint.number)) }
        // How it batches and whether it may conflate follow the clock (`ClockPolicy.swift`).
        // Where the writer writes every message, a recording copies each one as written.
        let tee = endpoint.recordFile != nil && configuration.clock.writesEveryMessageInOrder ? OutputTee() : nil
        self.tee = tee
        var traceOut: (@Sendable (UnsafeRawBufferPointer, LineScreening) -> Void)?
        if let (tracer, traced) = trace { traceOut = { tracer.traceOut($0, screening: $1, connection: traced) } }
        writer = SessionWriter(fd: endpoint.writeFD, polledBy: endpoint.socket, clock: configuration.clock, framing: framing,
                               tracer: traceOut, tee: tee, loop: loop)
        let clock = environment.makeSessionClock()
        var services = environment.servicesForOneSession(clientKey: endpoint.clientKey)
        var sink: any MessageSink = writer
        if let recordFile = endpoint.recordFile {
            guard let makeMirror = environment.makeMirror else { preconditionFailure("a process that records makes recorders") }
            let scheduler = clock.scheduler
            let recorder = makeMirror(SessionMirrorContext(
                file: recordFile, configuration: configuration, catalog: environment.catalog, services: services,
                tee: tee, logger: logger, now: { scheduler.now.milliseconds },
                handWriterEverything: { [writer] in writer.handOverEverything() },
                afterWork: configuration.clock == .real ? { flush in loop.executeTransferring(flush) } : nil))
            (services, sink) = recorder.observing(services, sendingTo: writer)
            self.recorder = recorder
        } else {
            recorder = nil
        }
        server = Server(configuration: configuration, clock: clock, services: services, sink: sink,
                        catalog: environment.catalog)
        recorder?.attach(to: server)
    }

    /// Starts reading; the session then runs until it ends and tells `ended`.
    func start() {
        let bound = LoopBound(self, loop: loop)
        // A client that closes its end ends the session as a signal does: submissions in flight
        // finish (and are stored), and a recording gets every message sent and its end.
        let gone = endpoint.isSocket ? "the client closed the connection" : "the client closed stdout"
        writer.whenClientGone { bound.execute { $0.stop(reason: gone) } }
        if endpoint.isSocket {
            writer.whenStopped { bound.execute { $0.partStopped() } }
        }
        // Synchronously, `sync` runs the loop's work on the reader's thread once the loop is free.
        let handsOverSynchronously = server.configuration.clock.handsInputOverSynchronously
        let limits = server.configuration.limits
        let isSocket = endpoint.isSocket
        let decoder = MessageDecoder(maxDepth: limits.maxDepth, fieldNames: KnownFieldNames(server.catalog))
        let keepsEditLines = recorder != nil
        let reader = ConnectionReader(
            fd: endpoint.readFD, framing: framing, maxLineBytes: limits.maxLineBytes,
            makeReceiver: { DecodedMessages(decoder, readBytes: $0, keepsEditLines: keepsEditLines) }
        ) { messages, isEnd, done in
            let kept = messages.kept
            let batch = InputBatch(messages.items, keptEditLines: kept)
            let receive: @Sendable () -> Void = {
                bound.value.receive(batch, isEnd: isEnd, done: done)
                if isEnd && isSocket { bound.value.partStopped() }
            }
            if handsOverSynchronously { bound.loop.sync(receive) } else { bound.loop.execute(receive) }
        }
        if let socket = endpoint.socket { reader.start(polledBy: socket) } else { reader.start() }
    }

    // MARK: Input

    private func receive(_ batch: InputBatch, isEnd: Bool, done: @escaping @Sendable () -> Void) {
        guard !isFinished else { return done() }
        if let kept = batch.keptEditLines { recorder?.willTake(kept) }
        input.append(batch.take(), isEnd: isEnd, done: done)
        process()
    }

    /// Handles waiting input unless a shutdown is draining; then lets the reader go on once the
    /// outgoing queue is below its bound, so a client that stops reading stops our reading too.
    private func process() {
        guard !isStopping else { return }
        // Taken out while its items are handled (handling one never reaches it), so that each
        // item costs no access to the session's state; put back before anything else is done.
        var taken = PendingInput()
        swap(&taken, &input)
        var exitCode: Int32?
        // What the batch's messages cause is written together as they are done: a request's
        // events and its response in one write, on the real clock.
        writer.gatheringWrites {
            while taken.hasNext && !server.isDraining {
                let item = taken.takeNext()
                if let trace { trace.tracer.traceIn(item, connection: trace.connection) }
                recorder?.recordIn(item)
                server.handle(consume item)
                exitCode = server.exitStatus
                if exitCode != nil { break }
            }
        }
        swap(&taken, &input)
        trace?.tracer.flush()
        if let exitCode {
            endReason = "exit"
            return finish(exitCode)
        }
        if server.isDraining { return waitForDrain() }
        if input.isEnd { return endOfInput() }
        if let done = input.takeDone() {
            writer.whenDrained(below: SessionWriter.highWater, done)
        }
    }

    /// Polls (without blocking the loop) until the shutdown's submissions have finished.
    private func waitForDrain(deadline: TimePoint? = nil) {
        guard case .real(let scheduler) = server.clock else { return }
        // One poll at a time: input that comes while it waits joins the pending items.
        guard deadline != nil || !isWaitingForDrain else { return }
        isWaitingForDrain = true
        let deadline = deadline ?? scheduler.now + Self.drainTimeout
        let expired = scheduler.now >= deadline
        if server.finishDraining(force: expired) {
            isWaitingForDrain = false
            if expired { logger.warning("shutdown: submissions still in flight after \(Self.drainTimeout); answering anyway") }
            return process()
        }
        scheduler.schedule(after: .milliseconds(10)) { [self] in waitForDrain(deadline: deadline) }
    }

    /// Whether a poll for the end of a shutdown's drain is under way.
    private var isWaitingForDrain = false

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

    /// Stops reading, lets submissions in flight finish (bounded), writes everything, then ends.
    func stop(reason: String) {
        guard !isStopping, !isFinished else { return }
        isStopping = true
        endReason = reason.hasPrefix("signal") ? "signal" : "clientGone"
        logger.info("\(reason): finishing submissions in flight, then ending the session")
        switch server.clock {
        case .virtual:
            _ = server.settleSubmissions()
            finish(0)
        case .real(let scheduler):
            settle(scheduler, deadline: scheduler.now + Self.drainTimeout, until: { !$0.hasSubmissionsInFlight })
        }
    }

    private func settle(_ scheduler: RealTimeScheduler, deadline: TimePoint, until isSettled: @escaping (Server) -> Bool) {
        guard !isFinished else { return }
        if isSettled(server) { return finish(0) }
        if scheduler.now >= deadline {
            logger.warning("work still in flight after \(Self.drainTimeout); ending without its outcome")
            return finish(0)
        }
        scheduler.schedule(after: .milliseconds(10)) { [self] in settle(scheduler, deadline: deadline, until: isSettled) }
    }

    private func finish(_ code: Int32) {
        guard !isFinished else { return }
        isFinished = true
        if endpoint.isSocket { return finishSocket(code) }
        // Everything is written before the recording ends, as its encoder copies messages as
        // written; a client that has taken nothing for the drain timeout gets (and the recording
        // holds) no more, so a stuck client cannot keep the process from ending.
        if !writer.flush(givingUpAfter: Self.drainTimeout) {
            logger.warning("the client has read nothing for \(Self.drainTimeout); ending without writing the rest")
            tee?.close()
        }
        recorder?.recordEnd(endReason)
        ended(self, code)
    }

    /// Ends a socket's session without holding the loop: the writer writes what is left (a client
    /// that takes none of it for the drain timeout is cut off), the reader is woken, and the socket
    /// closes once both have stopped. The other sessions run on meanwhile.
    private func finishSocket(_ code: Int32) {
        exitCode = code
        server.closeAllForms()
        recorder?.recordEnd(endReason)
        // A batch left unhandled (an `exit` in its middle) lets the reader go on to its end.
        input.takeDone()?()
        writer.close()
        shutdown(endpoint.readFD, Int32(SHUT_RD))
        if case .real(let scheduler) = server.clock {
            scheduler.schedule(after: Self.drainTimeout) { [self] in cutOff() }
        }
    }

    /// The code the session's `exit` asked for, kept until the socket closes.
    private var exitCode: Int32 = 0

    /// A writer still blocked at the drain deadline is made to fail its write, and so stops. The
    /// socket is still open (it closes only once both parts stopped), so this shuts down no other.
    private func cutOff() {
        guard stoppedParts < 2 else { return }
        logger.warning("the client has read nothing for \(Self.drainTimeout); closing its connection without the rest")
        shutdown(endpoint.writeFD, Int32(SHUT_RDWR))
    }

    private func partStopped() {
        stoppedParts += 1
        guard stoppedParts == 2, isFinished else { return }
        endpoint.socket?.forget()
        close(endpoint.readFD)
        if let trace { trace.tracer.connectionEnded(trace.connection) }
        ended(self, exitCode)
    }
}
