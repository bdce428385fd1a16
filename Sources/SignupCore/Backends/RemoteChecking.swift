/// Answers a form's remote checks: every kind of check a field can declare is asked through this
/// one port, so the form's runtime and reducer know nothing of any kind in particular.
public protocol RemoteChecking: AnyObject {
    /// Asks `question`. `answer` is called once, on the core's scheduler, with the verdict or the
    /// error (`unavailable`), and never after the result has been disposed, which withdraws the
    /// question.
    func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable
}

/// Answers `unique` checks: whether another account registered with the question's form kind
/// uses its value (`CheckQuestion.folded`) in its field. A directory that keeps accounts' fields
/// (the stores, the scripted directory) answers them.
public protocol UniqueValueChecking: AnyObject {
    /// `answer` is called once, on the core's scheduler: passed when the value is free, rejected
    /// when claimed; never after the result has been disposed.
    func checkUnique(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable
}
