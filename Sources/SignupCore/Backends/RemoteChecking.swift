/// Answers a form's remote checks: every kind of check a field can declare is asked through this
/// one port, so the form's runtime and reducer know nothing of any kind in particular.
public protocol RemoteChecking: AnyObject {
    /// Asks `check` about `value`. `answer` is called once, on the core's scheduler, with the
    /// verdict or the error (`unavailable`), and never after the result has been disposed, which
    /// withdraws the question.
    func ask(
        _ check: RemoteCheck, about value: String, answer: @escaping (Result<CheckVerdict, any Error>) -> Void
    ) -> any Disposable
}

/// The checks a username directory answers: `usernameAvailability`, a free name passing and a
/// taken one rejected.
public final class DirectoryChecks: RemoteChecking {
    private let availability: any UsernameAvailabilityChecking

    public init(_ availability: any UsernameAvailabilityChecking) {
        self.availability = availability
    }

    public func ask(
        _ check: RemoteCheck, about value: String, answer: @escaping (Result<CheckVerdict, any Error>) -> Void
    ) -> any Disposable {
        switch check.kind {
        case .usernameAvailability:
            return availability.checkAvailability(of: value) { result in
                answer(result.map { $0 == .available ? .passed : .rejected(nil) })
            }
        }
    }
}
