/// Answers a form's remote checks: every kind of check a field can declare is asked through this
/// one port, so the form's runtime and reducer know nothing of any kind in particular.
public protocol RemoteChecking: AnyObject {
    /// Asks `question`. `answer` is called once, on the core's scheduler, with the verdict or the
    /// error (`unavailable`), and never after the result has been disposed, which withdraws the
    /// question.
    func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable
}
