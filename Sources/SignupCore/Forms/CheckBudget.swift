/// How many availability checks (`usernameAvailability` and `unique`, the checks that tell whether
/// someone is registered) may be asked within a window, counted on the scheduler's clock: a
/// budget bounds how fast a client can list a site's users through them. One is kept per session
/// and one per store (per process; a PostgreSQL store counts for every process, `AccountStore`).
/// Past it, a check is not asked: the field fails with `check.budgetExceeded` and `retryAfter`,
/// the whole seconds until a check is allowed again.
public final class CheckBudget {
    /// What a check answers when the budget is spent (as `BackendError.checkBudgetExceeded`).
    public struct Exceeded: Error, Hashable, Sendable {
        /// Whole seconds (at least 1) until the oldest counted check leaves the window.
        public let retryAfter: Int64

        public init(retryAfter wait: TimeSpan) {
            retryAfter = max(1, wait.milliseconds / 1000 + (wait.milliseconds % 1000 == 0 ? 0 : 1))
        }
    }

    /// The field's result past the budget, with its `retryAfter` param.
    public static let exceededMessage = Message("check.budgetExceeded", "Too many checks; try again in {retryAfter} s")

    public let limit: Int
    public let window: TimeSpan
    private let scheduler: any Scheduler
    /// When each check in the window was asked, oldest first; at most `limit` of them.
    private var spent: [TimePoint] = []

    public init(limit: Int, window: TimeSpan, scheduler: any Scheduler) {
        self.limit = max(0, limit)
        self.window = window
        self.scheduler = scheduler
    }

    /// Counts one check and returns nil when the budget allows it; otherwise counts nothing and
    /// says how long until it would.
    public func spend() -> Exceeded? {
        let now = scheduler.now
        if let expired = spent.firstIndex(where: { $0 > now - window }) {
            spent.removeFirst(expired)
        } else {
            spent.removeAll(keepingCapacity: true)
        }
        guard spent.count < limit else {
            return Exceeded(retryAfter: (spent.first.map { $0 + window } ?? now) - now)
        }
        spent.append(now)
        return nil
    }

    /// Whether checks of this kind are counted: those that tell whether a value is registered.
    public static func counts(_ kind: RemoteCheck.Kind) -> Bool {
        switch kind {
        case .usernameAvailability, .unique: true
        case .http, .breachedPassword: false
        }
    }
}
