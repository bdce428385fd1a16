/// Counts failed logins per username (case-insensitively) on the scheduler's clock: after
/// `maxFailures` within `window`, further attempts are refused until the oldest of them has aged
/// out. Shared by every form of a process; virtual time drives it in tests.
public final class LoginRateLimiter {
    public let maxFailures: Int
    public let window: TimeSpan
    private let scheduler: any Scheduler
    private var failures: [String: [TimePoint]] = [:]

    public init(scheduler: any Scheduler, maxFailures: Int = 5, window: TimeSpan = .seconds(60)) {
        self.scheduler = scheduler
        self.maxFailures = maxFailures
        self.window = window
    }

    /// Whether attempts for this name are refused now.
    public func isLimited(_ username: String) -> Bool {
        recent(username).count >= maxFailures
    }

    public func recordFailure(_ username: String) {
        failures[username.lowercased(), default: []] = recent(username) + [scheduler.now]
    }

    public func recordSuccess(_ username: String) {
        failures[username.lowercased()] = nil
    }

    private func recent(_ username: String) -> [TimePoint] {
        let cutoff = scheduler.now - window
        return (failures[username.lowercased()] ?? []).filter { $0 > cutoff }
    }
}
