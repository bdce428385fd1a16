/// One question a form put to its backend, as a recording keeps it and a replay matches it.
public enum BackendQuestion: Hashable, Sendable {
    case availability(username: String)
    case registration(username: String, password: String)
    case login(username: String, password: String)
    case addFriend(Friend)
    case updateFriend(id: String, Friend)

    /// The name a recording gives the call.
    public var call: String {
        switch self {
        case .availability: "availability"
        case .registration: "register"
        case .login: "logIn"
        case .addFriend: "addFriend"
        case .updateFriend: "updateFriend"
        }
    }
}

/// What the backend answered to one question.
public enum BackendAnswer: Hashable, Sendable {
    case availability(Availability)
    case registration(RegistrationOutcome)
    case login(LoginOutcome)
    case friend(FriendSaveOutcome)
    /// The backend could not answer (`BackendError`).
    case failure(BackendError)

    /// Whether this answer can answer `question` (an availability check is not answered with a
    /// login's outcome); failures answer anything.
    public func answers(_ question: BackendQuestion) -> Bool {
        switch (self, question) {
        case (.failure, _), (.availability, .availability), (.registration, .registration), (.login, .login),
             (.friend, .addFriend), (.friend, .updateFriend):
            return true
        default:
            return false
        }
    }
}

/// Looks on at every question a form puts to its backends and every answer: a recording.
/// Called on the forms' scheduler only.
public protocol BackendObserver: AnyObject {
    /// A question is asked; returns its number, by which its end is told.
    func backendAsked(_ question: BackendQuestion) -> Int
    func backendAnswered(_ number: Int, _ answer: BackendAnswer)
    /// The question was withdrawn before its answer (a newer value, a closed form).
    func backendCancelled(_ number: Int)
}
