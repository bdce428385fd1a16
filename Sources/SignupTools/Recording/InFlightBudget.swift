import Foundation
import SignupServer

/// How much may wait for a thread that works through what another hands it: the giver waits while
/// handing more would pass `limit` (unless nothing waits at all, so that one oversized piece still
/// goes), and the worker gives back what it has done. Bounds memory when the worker falls behind.
final class InFlightBudget: @unchecked Sendable {
    private let condition = NSCondition()
    private let limit: Int
    // Guarded by `condition`.
    private var used = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Waits until `amount` more fits, then counts it.
    func take(_ amount: Int) {
        condition.withLock {
            while mustWait(for: amount) { condition.wait() }
            used += amount
        }
    }

    /// Whether taking `amount` now would wait.
    func wouldWait(for amount: Int) -> Bool {
        condition.withLock { mustWait(for: amount) }
    }

    /// Called with the lock held.
    private func mustWait(for amount: Int) -> Bool {
        used > 0 && used + amount > limit
    }

    /// Counts `amount` as done.
    func giveBack(_ amount: Int) {
        condition.withLock {
            used -= amount
            condition.broadcast()
        }
    }

    /// What is taken and not given back.
    var inFlight: Int { condition.withLock { used } }
}
