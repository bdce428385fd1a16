/// How a login attempt ended, when the backend answered at all.
public enum LoginOutcome: Hashable, Sendable {
    /// The credentials match; `token` is an opaque session token for the client.
    case loggedIn(token: String)
    /// Unknown user or wrong password: deliberately the same answer, in the same time.
    case wrongCredentials
    /// The backend itself refuses attempts for now (an HTTP 429).
    case rateLimited
}

/// Checks credentials against the directory that sign-up writes.
public protocol Authenticating: AnyObject {
    /// A cold stream: subscribing sends the attempt. It emits one outcome and completes, or fails
    /// with a `BackendError`, always on the core's scheduler.
    func logIn(username: String, password: String) -> EventStream<LoginOutcome>
}
