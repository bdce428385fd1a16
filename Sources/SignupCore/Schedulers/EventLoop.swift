import Dispatch
import Foundation
import Synchronization

/// The service's single serial executor. Every piece of reactive work runs here, in order;
/// other threads (the stdin reader, slow backends) hand work in through `execute`.
///
/// It owns a private serial queue rather than the main queue, which nothing drains on Linux
/// unless the process calls `dispatchMain()`.
public final class EventLoop: Sendable {
    private let queue: DispatchQueue
    private let step = StepStart()
    private let timers = Mutex(LoopTimers())

    public init(label: String = "signup.event-loop") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.marker, value: ObjectIdentifier(queue))
    }

    private static let marker = DispatchSpecificKey<ObjectIdentifier>()

    /// Whether the caller is running on this loop.
    public var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.marker) == ObjectIdentifier(queue)
    }

    /// When the work the loop is running began (uptime nanoseconds): the one time every event of
    /// that work is stamped with, as on the virtual clock, so a recording's times and the events'
    /// agree. On the loop only.
    public var currentStepStart: UInt64 {
        #if DEBUG
        assertOnLoop()
        #endif
        return step.uptimeNanoseconds
    }

    /// Runs `work` on the loop, after everything already queued. Safe from any thread.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            beginStep()
            work()
        }
    }

    /// Runs non-`Sendable` work on the loop. Sound only because the loop is the one executor that
    /// ever touches the reactive core's state, and callers hand their closure over entirely.
    public func executeTransferring(_ work: @escaping () -> Void) {
        let box = UncheckedTransfer(work)
        queue.async { [self] in
            beginStep()
            box.value()
        }
    }

    /// Runs `work` on the loop and waits for it. Never call this from the loop itself.
    public func sync<T>(_ work: () throws -> T) rethrows -> T {
        try queue.sync {
            beginStep()
            return try work()
        }
    }

    /// Runs `handler` on the loop every `interval` of wall-clock time. Keep the returned source alive.
    public func every(_ interval: TimeSpan, _ handler: @escaping @Sendable () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Self.nanoseconds(interval)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [self] in
            beginStep()
            handler()
        }
        timer.resume()
        return timer
    }

    /// Traps unless the caller is running on this loop.
    public func assertOnLoop() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs non-`Sendable` work on the loop `delay` after the current work's stamp, stamped with
    /// that time however late it runs. On the loop only.
    func scheduleTransferring(after delay: TimeSpan, _ work: @escaping () -> Void) -> LoopTimer {
        #if DEBUG
        assertOnLoop()
        #endif
        // From the time the current work is stamped with, not from whenever it got this far: a
        // debounce that a keystroke stamped T starts ends at T + delay, live as in a replay.
        let (sum, overflow) = step.uptimeNanoseconds.addingReportingOverflow(UInt64(Self.nanoseconds(delay)))
        let dueTime = overflow ? UInt64.max : sum
        let timer = timers.withLock { $0.add(dueTime: dueTime, work: UncheckedTransfer(work)) }
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: dueTime)) { [weak self] in
            self?.runTimers(dueBy: max(dueTime, DispatchTime.now().uptimeNanoseconds))
        }
        return timer
    }

    /// Begins work that came from outside the loop (an input, an answer, a tick). Timers already
    /// due run first, each stamped with its due time, so that the loop keeps a virtual clock's
    /// order, a timer due before an input running before it, even when Dispatch fires it late.
    private func beginStep() {
        let now = DispatchTime.now().uptimeNanoseconds
        runTimers(dueBy: now)
        step.begin(at: now)
    }

    private func runTimers(dueBy time: UInt64) {
        while let timer = timers.withLock({ $0.removeEarliest(dueBy: time) }) {
            guard let work = timer.take() else { continue }
            step.begin(at: timer.dueTime)
            work()
        }
    }

    /// A span in nanoseconds for Dispatch, from zero up to the largest `Int` (never trapping).
    private static func nanoseconds(_ span: TimeSpan) -> Int {
        Int(clamping: Saturating.multiply(max(0, span.milliseconds), 1_000_000))
    }
}

/// The start of the loop's current work. Written and read on the loop only, which serialises it.
private final class StepStart: @unchecked Sendable {
    private(set) var uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds

    func begin(at time: UInt64) {
        uptimeNanoseconds = time
    }
}

/// Carries a non-`Sendable` value to the event loop, which is the only place it is used.
/// Sound only when the sender gives the value up entirely.
package struct UncheckedTransfer<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
