/// What a form's submit does with the values snapshotted at the tap, and the messages of its outcomes.
public struct SubmitAction: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Registers a new account from the named username and password fields.
        case registerAccount(usernameField: String, passwordField: String)
        /// Logs in with the named username and password fields.
        case logIn(usernameField: String, passwordField: String)
        /// Adds a friend, or updates the friend the form was opened with, from the named fields.
        case saveFriend(firstNameField: String, lastNameField: String, phoneField: String)
        /// Sends the fields to the form's own API.
        case http(HTTPSubmission)
    }

    /// The ways a submission can fail, each with its own message.
    public enum Failure: String, CaseIterable, Hashable, Sendable {
        /// The name is no longer free (the registration lost a race).
        case taken
        /// The backend declined a registration; it may be retried.
        case refused
        /// Unknown user or wrong password (never says which).
        case wrongCredentials
        /// Too many failed logins for this name lately.
        case rateLimited
        /// The record being updated no longer exists.
        case notFound
        /// The backend does not let this client change the record.
        case unauthorised
        /// The record clashes with another (a friend with the same phone number).
        case conflict
        /// The backend could not be reached.
        case unavailable
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

    /// What a frontend shows for the submission: the button's label and a text for each state.
    public struct Texts: Hashable, Sendable {
        public var label: Message
        public var idle, submitting, succeeded, failed: Message

        public init(label: Message, idle: Message, submitting: Message, succeeded: Message, failed: Message) {
            self.label = label
            self.idle = idle
            self.submitting = submitting
            self.succeeded = succeeded
            self.failed = failed
        }

        /// The built-in texts of each kind of action.
        public static func standard(for kind: Kind) -> Texts {
            switch kind {
            case .registerAccount: return Texts(
                label: Message("registration.label", "Sign up"), idle: Message("registration.idle", "Not signed up yet"),
                submitting: Message("registration.submitting", "Signing up..."),
                succeeded: Message("registration.succeeded", "Signed up"), failed: Message("registration.failed", "Not signed up"))
            case .logIn: return Texts(
                label: Message("login.label", "Log in"), idle: Message("login.idle", "Logged out"),
                submitting: Message("login.submitting", "Logging in..."),
                succeeded: Message("login.succeeded", "Logged in"), failed: Message("login.failed", "Not logged in"))
            case .saveFriend: return Texts(
                label: Message("friendSave.label", "Save"), idle: Message("friendSave.idle", "Not saved yet"),
                submitting: Message("friendSave.submitting", "Saving..."),
                succeeded: Message("friendSave.succeeded", "Saved"), failed: Message("friendSave.failed", "Not saved"))
            case .http: return Texts(
                label: Message("submission.label", "Submit"), idle: Message("submission.idle", "Not submitted yet"),
                submitting: Message("submission.submitting", "Submitting..."),
                succeeded: Message("submission.succeeded", "Submitted"), failed: Message("submission.failed", "Not submitted"))
            }
        }
    }

    public var kind: Kind
    /// The message of each failure; a failure missing here uses `defaultMessages`.
    public var messages: [Failure: Message]
    public var stateNames: StateNames
    public var texts: Texts

    public init(kind: Kind, messages: [Failure: Message] = [:], stateNames: StateNames = .standard, texts: Texts? = nil) {
        self.kind = kind
        self.messages = messages
        self.stateNames = stateNames
        self.texts = texts ?? .standard(for: kind)
    }

    /// The English messages of the built-in forms.
    public static let defaultMessages: [Failure: Message] = [
        .taken: Message("username.taken", "Username already taken"),
        .refused: Message("signup.failed", "Sign-up failed, please try again"),
        .wrongCredentials: Message("login.wrongCredentials", "Wrong username or password"),
        .rateLimited: Message("login.rateLimited", "Too many failed attempts; try again in a minute"),
        .notFound: Message("friend.notFound", "This friend no longer exists"),
        .unauthorised: Message("friend.unauthorised", "You are not allowed to change this friend"),
        .conflict: Message("friend.conflict", "A friend with this phone number already exists"),
        .unavailable: Message("backend.unavailable", "Error contacting server"),
    ]

    /// The message shown for a failure.
    public func message(for failure: Failure) -> Message {
        messages[failure] ?? Self.defaultMessages[failure]!
    }

    /// The failures this kind of action can end in.
    public var possibleFailures: [Failure] {
        switch kind {
        case .registerAccount: return [.taken, .refused, .unavailable]
        case .logIn: return [.wrongCredentials, .rateLimited, .unavailable]
        case .saveFriend: return [.notFound, .unauthorised, .conflict, .unavailable]
        case .http: return [.refused, .unavailable]
        }
    }

    /// The fields the action reads.
    public var fieldNames: [String] {
        switch kind {
        case .registerAccount(let username, let password), .logIn(let username, let password): return [username, password]
        case .saveFriend(let first, let last, let phone): return [first, last, phone]
        case .http(let submission): return submission.placeholders
        }
    }

    /// The member of a success notification that carries the result: `account` or `friend`.
    public var resultName: String {
        switch kind {
        case .registerAccount, .logIn: return "account"
        case .saveFriend: return "friend"
        case .http: return "result"
        }
    }

    /// Whether a success may change what remote checks answer (a name registered is taken now).
    public var registers: Bool {
        switch kind {
        case .registerAccount, .http: true
        case .logIn, .saveFriend: false
        }
    }

    /// Whether a form with this action can be opened on an existing record, to update it.
    public var savesRecords: Bool {
        if case .saveFriend = kind { return true }
        return false
    }
}
