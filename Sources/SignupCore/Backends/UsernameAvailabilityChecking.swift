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

    /// The same check, answered through one callback: `answer` is called once, on the core's
    /// scheduler, with the verdict or the error, and never after the result has been disposed.
    /// A form asks this way on every settled keystroke, so a backend that can answer it with
    /// fewer objects than a stream should; by default it subscribes to `availability(of:)`.
    func checkAvailability(
        of username: String, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable
}

extension UsernameAvailabilityChecking {
    public func checkAvailability(
        of username: String, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable {
        var answered = false
        return availability(of: username).subscribe(Observer { event in
            guard !answered else { return }
            switch event {
            case .next(let availability):
                answered = true
                answer(.success(availability))
            case .error(let error):
                answered = true
                answer(.failure(error))
            case .completed:
                answered = true
                answer(.failure(BackendError.unavailable(reason: "the availability check ended without an answer")))
            }
        })
    }
}

/// A directory whose store counts one check budget for every process (PostgreSQL): it answers a
/// quiet client's availability question even when that budget is spent (`CheckBudgets`).
public protocol SharedCheckBudgetHolding: UsernameAvailabilityChecking {
    func checkAvailability(
        of username: String, fromAQuietClient quiet: Bool, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable
}
