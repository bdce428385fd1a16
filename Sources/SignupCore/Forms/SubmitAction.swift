/// What a form's submit does with the values snapshotted at the tap, and the messages of its outcomes.
public struct SubmitAction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Registers a new account from the named username and password fields.
        case registerAccount(usernameField: String, passwordField: String)
        /// Logs in with the named username and password fields.
        case logIn(usernameField: String, passwordField: String)
    }

    /// What clients call the submission states of this action (a login says `loggingIn`).
    public struct StateNames: Hashable, Sendable {
        public var idle, submitting, succeeded, failed: String

        public init(idle: String, submitting: String, succeeded: String, failed: String) {
            self.idle = idle
            self.submitting = submitting
            self.succeeded = succeeded
            self.failed = failed
        }

        public static let standard = StateNames(idle: "idle", submitting: "submitting", succeeded: "succeeded", failed: "failed")
        public static let login = StateNames(idle: "loggedOut", submitting: "loggingIn", succeeded: "loggedIn", failed: "loginFailed")

        public func name(of state: SubmissionState) -> String {
            switch state {
            case .idle: return idle
            case .submitting: return submitting
            case .succeeded: return succeeded
            case .failed: return failed
            }
        }
    }

    public var kind: Kind
    /// The backend refused because the name is no longer free (it lost a race).
    public var taken: Message
    /// The backend refused for another reason (for a login: wrong credentials); may be retried.
    public var refused: Message
    /// The backend could not be reached.
    public var unavailable: Message
    /// Too many failed attempts for this name lately (logins only).
    public var rateLimited: Message
    public var stateNames: StateNames

    public init(
        kind: Kind, taken: Message, refused: Message, unavailable: Message,
        rateLimited: Message = Message("login.rateLimited", "Too many failed attempts; try again in a minute"),
        stateNames: StateNames = .standard
    ) {
        self.kind = kind
        self.taken = taken
        self.refused = refused
        self.unavailable = unavailable
        self.rateLimited = rateLimited
        self.stateNames = stateNames
    }

    /// The fields the action reads.
    public var fieldNames: [String] {
        switch kind {
        case .registerAccount(let username, let password), .logIn(let username, let password): return [username, password]
        }
    }
}
