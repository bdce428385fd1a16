/// Why a backend could not answer. Pipelines show it as `backend.unavailable`, never as a verdict.
public enum BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The backend answered with a failure or could not be reached.
    case unavailable(reason: String)
    /// No answer came within the allowed time.
    case timedOut

    public var description: String {
        switch self {
        case .unavailable(let reason): return "backend unavailable: \(reason)"
        case .timedOut: return "backend timed out"
        }
    }
}
