/// How a registration attempt ended, when the backend answered at all.
public enum RegistrationOutcome: Hashable, Sendable {
    /// The account exists now; `account` describes it and never holds the password.
    case registered(account: JSONValue)
    /// Someone holds the name already (for example, they won a race since the availability check).
    case usernameTaken
    /// The backend declined; the user may try again. `details` become the failure's params
    /// (for example the HTTP status).
    case refused(reason: String, details: [String: JSONValue] = [:])
}

/// Creates accounts.
public protocol AccountRegistering: AnyObject {
    /// A cold stream: subscribing sends the registration, which then runs to its end. It emits one
    /// outcome and completes, or fails with a `BackendError`, always on the core's scheduler.
    func register(username: String, password: String) -> EventStream<RegistrationOutcome>
}
