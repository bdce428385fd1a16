import SignupBackends
import SignupCore
import SignupTransport

/// What the choice of clock decides, in one place. Virtual time must give output that depends on
/// the input alone, byte for byte; real time must answer a keystroke promptly and keep up with a
/// client that lags. How time itself moves (`at`, `clock.advance`, settling at the end) is in
/// `Server+Clock.swift`.
extension ClockMode {
    /// The scheduler the server runs on: a virtual one, or the wall clock on the event loop.
    func makeClock(loop: EventLoop) -> Server.Clock {
        switch self {
        case .virtual: .virtual(VirtualTimeScheduler())
        case .real: .real(RealTimeScheduler(loop: loop))
        }
    }

    /// Login tokens: from a seeded generator in virtual time, so runs repeat exactly; from the
    /// system's secure source otherwise.
    package func tokens(seed: UInt64) -> TokenSource {
        self == .virtual ? .reproducible(seed: seed) : .secure()
    }

    /// Whether the stdin reader hands each batch to the loop and waits (real time: a keystroke's
    /// answer should not wait for a thread to wake) or queues it and reads on (virtual time:
    /// throughput counts more).
    var handsInputOverSynchronously: Bool { self == .real }

    /// Whether field events may be conflated while the client lags (real time; the newest result
    /// of each field still arrives). Virtual time never drops anything: pausing stdin bounds it.
    var conflatesOutput: Bool { self == .real }

    /// Whether a small message that finds nothing waiting is written at once by its sender,
    /// sparing the writer thread's wake-up (real time); virtual time batches.
    var writesDirectlyWhenIdle: Bool { self == .real }

    /// Whether a session's writer writes every message, in the order sent (neither of the two
    /// above): then a recording can copy each one out as written (`OutputTee`).
    var writesEveryMessageInOrder: Bool { !conflatesOutput && !writesDirectlyWhenIdle }
}

extension Server.Clock {
    /// How the store's blocking work runs: inline and in order on the virtual clock, on a
    /// background thread (answering on the loop) in real time.
    func blockingWorkRunner(loop: EventLoop) -> any BlockingWorkRunner {
        switch self {
        case .virtual(let scheduler): InlineWorkRunner(scheduler: scheduler)
        case .real: BackgroundWorkRunner(loop: loop)
        }
    }
}
