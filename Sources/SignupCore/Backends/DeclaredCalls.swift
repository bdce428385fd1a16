/// Answers the calls forms declare as data, remote checks and `http` submissions, by whom the
/// process has for each: what the scripted directory scripts (a check by its name, a submission
/// by its form's kind) it answers from its script; otherwise `usernameAvailability` and `unique` go
/// to the directory, and `http` checks and submissions over the network (unavailable where the process
/// speaks no HTTP). It plays the directory's availability role too, so a form's services carry it
/// at no cost.
public final class DeclaredCalls: UsernameAvailabilityChecking, RemoteChecking, SubmissionSending {
    public let directory: any UsernameAvailabilityChecking
    private let scripted: (any ScriptedAnswering)?
    /// The directory as what it also is, found once rather than cast at every check.
    private let sharedBudgets: (any SharedCheckBudgetHolding)?
    private let uniqueValues: (any UniqueValueChecking)?
    private let http: (any RemoteChecking)?
    private let submissions: (any SubmissionSending)?

    /// `http` asks the checks answered over the network; `submissions` sends `http` submissions.
    public init(directory: any UsernameAvailabilityChecking, http: (any RemoteChecking)? = nil, submissions: (any SubmissionSending)? = nil) {
        self.directory = directory
        scripted = directory as? any ScriptedAnswering
        sharedBudgets = directory as? any SharedCheckBudgetHolding
        uniqueValues = directory as? any UniqueValueChecking
        self.http = http
        self.submissions = submissions
    }

    public func availability(of username: String) -> EventStream<Availability> {
        directory.availability(of: username)
    }

    public func checkAvailability(of username: String, answer: @escaping (Result<Availability, any Error>) -> Void) -> any Disposable {
        directory.checkAvailability(of: username, answer: answer)
    }

    public func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        if let scripted, let asked = scripted.answer(question, answer: answer) { return asked }
        switch question.answerer {
        case .directoryAvailability:
            if let shared = sharedBudgets {
                return shared.checkAvailability(of: question.value, fromAQuietClient: question.isFromAQuietClient) { result in
                    answer(result.map(CheckVerdict.init))
                }
            }
            return directory.checkAvailability(of: question.value) { result in
                answer(result.map(CheckVerdict.init))
            }
        case .directoryFields:
            guard let unique = uniqueValues else {
                answer(.failure(BackendError.unavailable(reason: "this backend keeps no fields to compare")))
                return Disposables.empty
            }
            return unique.checkUnique(question, answer: answer)
        case .network:
            guard let http else {
                answer(.failure(BackendError.unavailable(reason: "http checks are not asked here")))
                return Disposables.empty
            }
            return http.ask(question, answer: answer)
        }
    }

    public func send(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer> {
        if let scripted, let answered = scripted.answer(request) { return answered }
        guard let submissions else { return .fail(BackendError.unavailable(reason: "http submissions are not sent here")) }
        return submissions.send(request)
    }
}

/// A directory that answers some declared calls from a script or a recording's replies before
/// any other backend is asked (the scripted directory).
public protocol ScriptedAnswering: AnyObject {
    /// Answers a named check as scripted; nil for one the script does not name.
    func answer(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> (any Disposable)?
    /// Answers an `http` submission as scripted; nil for a kind the script does not name.
    func answer(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer>?
}
