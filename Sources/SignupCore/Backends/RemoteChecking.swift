/// Answers a form's remote checks: every kind of check a field can declare is asked through this
/// one port, so the form's runtime and reducer know nothing of any kind in particular.
public protocol RemoteChecking: AnyObject {
    /// Asks `question`. `answer` is called once, on the core's scheduler, with the verdict or the
    /// error (`unavailable`), and never after the result has been disposed, which withdraws the
    /// question.
    func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable
}

/// Answers every check a form can declare, by whom the process has for each: a check the
/// scripted directory names is answered from its script; otherwise `usernameAvailability` by the
/// directory and `http` over the network (unavailable where the process speaks no HTTP). It plays
/// the directory's availability role too, so a form's services carry it at no cost.
public final class RemoteChecks: UsernameAvailabilityChecking, RemoteChecking {
    public let directory: any UsernameAvailabilityChecking
    private let scripted: ScriptedDirectory?
    private let http: HTTPChecks?

    public init(directory: any UsernameAvailabilityChecking, http: HTTPChecks? = nil) {
        self.directory = directory
        scripted = directory as? ScriptedDirectory
        self.http = http
    }

    public func availability(of username: String) -> EventStream<Availability> {
        directory.availability(of: username)
    }

    public func checkAvailability(of username: String, answer: @escaping (Result<Availability, any Error>) -> Void) -> any Disposable {
        directory.checkAvailability(of: username, answer: answer)
    }

    public func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        if let scripted, let asked = scripted.answer(question, answer: answer) { return asked }
        switch question.check.kind {
        case .usernameAvailability:
            return directory.checkAvailability(of: question.value) { result in
                answer(result.map { $0 == .available ? .passed : .rejected(nil) })
            }
        case .http:
            guard let http else {
                answer(.failure(BackendError.unavailable(reason: "http checks are not asked here")))
                return Disposables.empty
            }
            return http.ask(question, answer: answer)
        }
    }
}
