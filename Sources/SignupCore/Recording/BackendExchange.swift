/// One question a form put to its backend, as a recording keeps it and a replay matches it.
public enum BackendQuestion: Hashable, Sendable {
    case availability(username: String)
    case registration(username: String, password: String)
    case login(username: String, password: String)
    case addFriend(Friend)
    case updateFriend(id: String, Friend)
    /// A named remote check of any kind but `usernameAvailability` (recorded as `availability`),
    /// with what it sends by name (`CheckQuestion.inputs`).
    case check(name: String, inputs: [String: String])
    /// An `http` submission of a form of `kind`, with every field's value by name.
    case submission(kind: String, fields: [String: String])

    /// The question a remote check makes.
    public init(_ question: CheckQuestion) {
        if question.answerer == .directoryAvailability {
            self = .availability(username: question.value)
        } else {
            self = .check(name: question.checkName, inputs: question.inputs)
        }
    }

    /// The name a recording gives the call.
    public var call: String {
        switch self {
        case .check: "check"
        case .submission: "submit"
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
    case verdict(CheckVerdict)
    case submission(SubmissionAnswer)
    /// The backend could not answer (`BackendError`).
    case failure(BackendError)

    /// Sends this answer to a stream's observer as `question`'s outcome: its value and the end, or
    /// its error; an answer of another kind of call fails as unavailable.
    public func deliver<Value>(to observer: Observer<Value>, as question: BackendQuestion, _ extract: (BackendAnswer) -> Value?) {
        if case .failure(let error) = self {
            observer.onError(error)
        } else if let value = extract(self) {
            observer.onNext(value)
            observer.onCompleted()
        } else {
            observer.onError(BackendError.unavailable(reason: "\(question.call) was answered with another call's answer"))
        }
    }
}

extension BackendAnswer {
    /// The answer with `transform` applied to each text a backend wrote in it (a rejection's
    /// message and params, an account, a submission's body, a failure's reason); nil when it holds
    /// none, so that `transform` is never called.
    public func mappingTexts(_ transform: (String) -> String) -> BackendAnswer? {
        switch self {
        case .verdict(.rejected(var issue?)):
            issue.message = transform(issue.message)
            issue.params = issue.params.mapValues { $0.mappingStrings(transform) }
            return .verdict(.rejected(issue))
        case .verdict(.rejectedWith(let params)): return .verdict(.rejectedWith(params: params.mapValues { $0.mappingStrings(transform) }))
        case .registration(.registered(let account)): return .registration(.registered(account: account.mappingStrings(transform)))
        case .submission(.accepted(let result)): return .submission(.accepted(result.mappingStrings(transform)))
        case .submission(.refused(let status, let body)): return .submission(.refused(status: status, body: body?.mappingStrings(transform)))
        case .failure(.unavailable(let reason)): return .failure(.unavailable(reason: transform(reason)))
        default: return nil
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
