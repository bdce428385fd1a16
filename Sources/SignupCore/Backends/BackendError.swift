/// Why a backend could not answer. Pipelines show it as `backend.unavailable`, never as a verdict.
public enum BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The backend answered with a failure or could not be reached.
    case unavailable(reason: String)
    /// No answer came within the allowed time.
    case timedOut
    /// The store's shared budget of availability checks is spent (`CheckBudget`); never asked.
    case checkBudgetExceeded(CheckBudget.Exceeded)

    public var description: String {
        switch self {
        case .unavailable(let reason): return "backend unavailable: \(reason)"
        case .timedOut: return "backend timed out"
        case .checkBudgetExceeded(let exceeded): return "check budget spent; retry after \(exceeded.retryAfter) s"
        }
    }
}
