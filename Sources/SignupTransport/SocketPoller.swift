import CEventPoll
import Foundation
import Synchronization

/// One thread that waits, on epoll, for every socket registered with it to be readable or
/// writable, and tells that socket's `PolledSocket`. However many sockets there are, this is one
/// thread: a connection costs a descriptor and its buffers, never a thread of its own.
package final class SocketPoller: Sendable {
    private let descriptor: Int32
    /// Ends a wait so that the sockets in `refusedReady` are told (`report`).
    private let waker: Int32
    /// The sockets by token. A token is never reused, so a report for a socket already gone (one
    /// already in hand as it was removed) finds nothing, even if its descriptor number has been.
    private let sockets = Mutex<[UInt64: PolledSocket]>([:])
    private let lastToken = Atomic<UInt64>(0)
    /// The tokens of sockets epoll refused (`PolledSocket.change`) that want to be told they are
    /// ready: such a socket is ready whenever it asks, as it has been shut down.
    private let refusedReady = Mutex<[UInt64]>([])

    /// How many bytes one readiness report reads of a socket at most, so that one busy client
    /// cannot hold the thread while the others wait (level-triggered: the rest is reported again).
    package static let readBytes = 64 * 1024

    /// Starts the poller's thread. Fails only when the process may make no epoll instance (or
    /// no eventfd to wake it).
    package init() throws(PollerError) {
        descriptor = signup_poll_create()
        guard descriptor >= 0 else { throw PollerError(errno: errno) }
        waker = signup_poll_make_waker(descriptor)
        guard waker >= 0 else {
            let reason = errno
            close(descriptor)
            throw PollerError(errno: reason)
        }
        let thread = Thread { [self] in
            // The kernel's name too (at most 15 bytes), for `top -H` and `/proc/PID/task/*/comm`.
            signup_poll_name_thread("signup.sockets")
            run()
        }
        thread.name = "signup.sockets"
        thread.start()
    }

    package struct PollerError: Error, CustomStringConvertible {
        let errno: Int32
        package var description: String { "cannot make an epoll instance: \(String(cString: strerror(errno)))" }
    }

    func newToken() -> UInt64 {
        lastToken.add(1, ordering: .relaxed).newValue
    }

    func register(_ socket: PolledSocket, token: UInt64) {
        sockets.withLock { $0[token] = socket }
    }

    func forget(_ token: UInt64) {
        _ = sockets.withLock { $0.removeValue(forKey: token) }
    }

    /// Watches `fd` for `interest` (SIGNUP_POLL_* summed; 0 stops watching); whether epoll took
    /// it (errno says why not). Adding fails for a client's doing past the system's limits
    /// (ENOSPC beyond `fs.epoll.max_user_watches`, ENOMEM). Any thread.
    func watch(_ fd: Int32, token: UInt64, wasWatched: Bool, interest: Int32) -> Bool {
        signup_poll_watch(descriptor, fd, wasWatched ? 1 : 0, interest, token) == 0
    }

    /// Tells the socket of `token`, refused by epoll, on the poller's thread, that it is ready
    /// for what it asks. Any thread.
    func report(_ token: UInt64) {
        refusedReady.withLock { $0.append(token) }
        signup_poll_wake(waker)
    }

    private func run() {
        let capacity = 256
        let tokens = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        let ready = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBytes, alignment: 16)
        let everything = UInt8(SIGNUP_POLL_READABLE | SIGNUP_POLL_WRITABLE)
        while true {
            let count = signup_poll_wait(descriptor, tokens, ready, Int32(capacity), -1)
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait: \(String(cString: strerror(errno)))")
                continue
            }
            for index in 0..<Int(count) {
                guard tokens[index] != 0 else {
                    signup_poll_drain_waker(waker)
                    for token in refusedReady.withLock({ reports in defer { reports = [] }; return reports }) {
                        sockets.withLock { $0[token] }?.isReady(everything, readingInto: buffer)
                    }
                    continue
                }
                guard let socket = sockets.withLock({ $0[tokens[index]] }) else { continue }
                socket.isReady(ready[index], readingInto: buffer)
            }
        }
    }
}

/// A non-blocking socket watched by a `SocketPoller`: its reader is told when it is readable and
/// its writer when it is writable, each only while it asks to be. Reading pauses while
/// `readSlots` batches read from it wait to be taken, as a blocking reader would.
package final class PolledSocket: Sendable {
    package let fd: Int32
    private let poller: SocketPoller
    private let token: UInt64

    private struct State {
        var reading: Reading = .waiting
        var readsWaiting = 0
        var writes = false
        var isWatched = false
        /// Epoll refused the socket: it was shut down, and is told it is ready whenever it asks
        /// (`SocketPoller.report`), so its reader meets the end and its writer a client gone.
        var isRefused = false
        var isReportPending = false
        var whenReadable: (@Sendable (UnsafeMutableRawBufferPointer) -> Void)?
        var whenWritable: (@Sendable () -> Void)?

        enum Reading { case waiting, watched, ended }

        var interest: Int32 {
            var interest: Int32 = 0
            if reading == .watched && readsWaiting < PolledSocket.readSlots { interest |= Int32(SIGNUP_POLL_READABLE) }
            if writes { interest |= Int32(SIGNUP_POLL_WRITABLE) }
            return interest
        }
    }

    private let state = Mutex(State())

    /// Batches read and not yet taken, at most; the fifth waits until one is.
    package static let readSlots = 4

    /// Makes `fd` non-blocking and registers it with `poller`, watched for nothing yet.
    package init(_ fd: Int32, poller: SocketPoller) {
        self.fd = fd
        self.poller = poller
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        token = poller.newToken()
        poller.register(self, token: token)
    }

    /// Changes the state and watches what it then asks for; one lock, so changes from two threads
    /// cannot reach epoll out of order. A socket epoll refuses is shut down, not the process: its
    /// connection ends as if the client had gone.
    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            let before = state.interest
            body(&state)
            let after = state.interest
            if state.isRefused { return reportIfAsked(&state) }
            guard after != before else { return }
            guard poller.watch(fd, token: token, wasWatched: state.isWatched, interest: after) else {
                if state.isWatched { _ = poller.watch(fd, token: token, wasWatched: true, interest: 0) }
                state.isWatched = false
                state.isRefused = true
                shutdown(fd, Int32(SHUT_RDWR))
                return reportIfAsked(&state)
            }
            state.isWatched = after != 0
        }
    }

    /// For a refused socket, as level-triggered epoll would: a report while it asks for one.
    private func reportIfAsked(_ state: inout State) {
        guard state.interest != 0, !state.isReportPending else { return }
        state.isReportPending = true
        poller.report(token)
    }

    /// Starts reading: `handler` runs on the poller's thread whenever the socket is readable and a
    /// slot is free, with the poller's buffer to read into.
    package func startReading(_ handler: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void) {
        change {
            $0.whenReadable = handler
            if $0.reading == .waiting { $0.reading = .watched }
        }
    }

    /// Takes a slot for a batch read; reading pauses while none is free.
    package func takeReadSlot() {
        change { $0.readsWaiting += 1 }
    }

    /// Gives a batch's slot back once the batch has been taken. Any thread.
    package func giveBackReadSlot() {
        change { $0.readsWaiting -= 1 }
    }

    /// Reads no more: the end of input was read.
    package func stopReading() {
        change {
            $0.reading = .ended
            $0.whenReadable = nil
        }
    }

    /// Sets what runs on the poller's thread when the socket is writable and writing is watched.
    package func whenWritable(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.whenWritable = handler }
    }

    /// Watches for room to write (true) or stops (false). Any thread.
    package func watchWriting(_ writes: Bool) {
        change { $0.writes = writes }
    }

    /// Whether the socket is watched for input now (for tests).
    package var isWatchingReads: Bool {
        state.withLock { $0.interest & Int32(SIGNUP_POLL_READABLE) != 0 }
    }

    /// Stops watching and forgets the socket, dropping its handlers; then its owner may close it.
    package func forget() {
        change {
            $0.reading = .ended
            $0.writes = false
            $0.whenReadable = nil
            $0.whenWritable = nil
        }
        poller.forget(token)
    }

    /// On the poller's thread: tells the writer, then the reader, what they asked to hear of.
    fileprivate func isReady(_ ready: UInt8, readingInto buffer: UnsafeMutableRawBufferPointer) {
        let (reader, writer, isRefused) = state.withLock { state in
            state.isReportPending = false
            return (state.interest & Int32(SIGNUP_POLL_READABLE) != 0 ? state.whenReadable : nil,
                    state.writes ? state.whenWritable : nil, state.isRefused)
        }
        if ready & UInt8(SIGNUP_POLL_WRITABLE) != 0 { writer?() }
        if ready & UInt8(SIGNUP_POLL_READABLE) != 0 { reader?(buffer) }
        if isRefused { change { _ in } }
    }

    /// Whether epoll refused the socket, which was then shut down (for tests).
    package var wasRefused: Bool {
        state.withLock { $0.isRefused }
    }
}
