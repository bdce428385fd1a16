import Foundation

/// SIGTERM and SIGINT, taken by a thread of their own so that none is lost.
///
/// `block()` runs first thing in the process, before any other thread exists, so every thread
/// inherits a mask with both blocked: a signal sent at any moment, even before the server is
/// ready, stays pending until `watch` takes it with `sigwait`. Left unblocked on some thread, a
/// signal went to that thread instead: before a handler was set it ended the process with the
/// signal, and once its action was "ignore" (as Dispatch's signal sources need) it was dropped.
enum TerminationSignals {
    static let watched: [Int32] = [SIGTERM, SIGINT]

    /// Blocks the watched signals on the calling thread and every thread it starts afterwards.
    static func block() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Calls `handler` with each watched signal as it arrives (including one already pending),
    /// on a thread that does nothing else.
    static func watch(_ handler: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            var set = signalSet()
            while true {
                var signal: Int32 = 0
                if sigwait(&set, &signal) == 0 { handler(signal) }
            }
        }
        thread.name = "signup.signals"
        thread.start()
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched { sigaddset(&set, signal) }
        return set
    }
}
