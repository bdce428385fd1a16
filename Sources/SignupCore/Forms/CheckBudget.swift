/// How many availability checks (`usernameAvailability` and `unique`, the checks that tell whether
/// someone is registered) may be asked within a window, counted on the scheduler's clock: a
/// budget bounds how fast a client can list a site's users through them. One is kept per client
/// and one per store (`CheckBudgets`; a PostgreSQL store also counts for every process, `AccountStore`).
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
        let now = dropExpired()
        guard spent.count < limit else {
            return Exceeded(retryAfter: (spent.first.map { $0 + window } ?? now) - now)
        }
        spent.append(now)
        return nil
    }

    /// How many checks were counted within the window until now.
    public var spentInWindow: Int {
        dropExpired()
        return spent.count
    }

    /// Forgets the checks that have left the window; the time now.
    @discardableResult
    private func dropExpired() -> TimePoint {
        let now = scheduler.now
        if let expired = spent.firstIndex(where: { $0 > now - window }) {
            spent.removeFirst(expired)
        } else {
            spent.removeAll(keepingCapacity: true)
        }
        return now
    }
}

/// A process's check budgets: one per client, by the client's key, and one for the store. A client
/// that reconnects finds its budget as it left it, so it can spend only its own. The store's
/// bound slows a harvester without denying the others: once it is spent, only clients that have
/// asked more than `quietShare` checks in the window are refused; a person typing a name asks a
/// few. Used on the event loop only.
public final class CheckBudgets {
    /// Each client's checks in a window; 0 for no bound (they are still counted, for `quietShare`).
    public let clientLimit: Int
    public let store: CheckBudget?
    /// A client that has asked at most this many checks in the window passes a spent store budget.
    public let quietShare: Int
    private let window: TimeSpan
    private let scheduler: any Scheduler
    private var clients: [String: CheckBudget] = [:]

    /// At most this many clients' budgets are kept; past it, those with nothing in their window go.
    public static let maxClientsKept = 100_000

    public init(clientLimit: Int, storeLimit: Int, window: TimeSpan, quietShare: Int, scheduler: any Scheduler) {
        self.clientLimit = max(0, clientLimit)
        self.window = window
        self.scheduler = scheduler
        self.quietShare = quietShare
        store = storeLimit > 0 ? CheckBudget(limit: storeLimit, window: window, scheduler: scheduler) : nil
    }

    /// Whether any check can be refused.
    public var isBounded: Bool { clientLimit > 0 || store != nil }

    /// Counts one check of the client `key` against its budget, then the store's; nil when both
    /// allow it, otherwise how long to wait.
    public func spend(for key: String) -> CheckBudget.Exceeded? {
        let client = budget(for: key)
        if let exceeded = client.spend() { return exceeded }
        guard let store, let exceeded = store.spend() else { return nil }
        return client.spentInWindow <= quietShare ? nil : exceeded
    }

    /// Whether the client `key` has asked at most `quietShare` checks in the window.
    public func isQuiet(_ key: String) -> Bool {
        (clients[key]?.spentInWindow ?? 0) <= quietShare
    }

    private func budget(for key: String) -> CheckBudget {
        if let known = clients[key] { return known }
        if clients.count >= Self.maxClientsKept { clients = clients.filter { $0.value.spentInWindow > 0 } }
        let made = CheckBudget(limit: clientLimit > 0 ? clientLimit : Int.max, window: window, scheduler: scheduler)
        clients[key] = made
        return made
    }
}
