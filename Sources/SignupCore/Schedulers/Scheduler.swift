/// Where time-based operators and backends run their delayed work.
///
/// A scheduler runs every action on one serial executor, so the reactive core needs no locks.
/// Actions scheduled for the same instant run in the order they were scheduled.
public protocol Scheduler: AnyObject {
    /// The current time on this scheduler's clock.
    var now: TimePoint { get }

    /// Runs `action` once `delay` has passed (a delay of zero or less means as soon as possible,
    /// never synchronously). Disposing the result before then cancels it. The action is taken
    /// over, not copied: a caller handing on a stored closure pays one count, not two.
    @discardableResult
    func schedule(after delay: TimeSpan, _ action: consuming @escaping () -> Void) -> any Disposable

    /// Traps unless called from the executor this scheduler runs its actions on, which is the
    /// only place the forms' state may be touched. Forms and the server call it in debug builds.
    func preconditionOnExecutor()
}

extension Scheduler {
    /// A scheduler with no executor of its own (the virtual clock runs wherever it is driven from,
    /// one call at a time) has nothing to check.
    public func preconditionOnExecutor() {}
}
