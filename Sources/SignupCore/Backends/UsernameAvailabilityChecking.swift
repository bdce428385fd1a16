/// Whether a username can still be registered.
public enum Availability: String, Hashable, Sendable {
    case available
    case taken
}

/// Answers whether usernames are free.
public protocol UsernameAvailabilityChecking: AnyObject {
    /// A cold stream: subscribing starts the check, disposing cancels it. It emits one verdict and
    /// completes, or fails with a `BackendError`, always on the core's scheduler.
    func availability(of username: String) -> EventStream<Availability>
}
