/// The answer of the last settled check of one field, so settling on the same value again asks
/// the backend only once. Forgotten after a submission succeeds, since that can change answers.
final class RemoteCheckMemo {
    private var entry: (value: String, result: FieldResult)?

    func result(for value: String) -> FieldResult? {
        entry.flatMap { $0.value == value ? $0.result : nil }
    }

    func remember(_ result: FieldResult, for value: String) {
        entry = (value, result)
    }

    func forget() {
        entry = nil
    }
}

/// Debounced, latest-only remote checks for one field.
struct RemoteCheckRunner {
    let field: Int
    let check: RemoteCheck
    let memo: RemoteCheckMemo
    let services: FormServices
    let activity: ActivityTracker
    let localizer: Localizer

    private enum Request {
        case cancel
        case check(LocalVerdict)
    }

    /// Every edit of the field cancels the pending or running check at once; the value that stays
    /// quiet for `debounce` (and passes the local rules) is then checked. The answers carry the
    /// version they judge.
    func answers(
        to verdicts: EventStream<LocalVerdict>, debounce: TimeSpan, scheduler: any Scheduler
    ) -> EventStream<FormChange> {
        let settled = debounce > .zero ? verdicts.debounce(debounce, on: scheduler) : verdicts
        let requests = EventStream<Request>.merge(
            verdicts.map { _ in .cancel },
            settled.filter(\.needsRemoteCheck).map { .check($0) })
        return requests.flatMapLatest { request -> EventStream<FormChange> in
            guard case .check(let verdict) = request else { return .empty() }
            return result(for: verdict.value)
                .map { FormChange.remote(field: field, version: verdict.version, result: $0) }
        }
    }

    private func result(for value: String) -> EventStream<FieldResult> {
        if let remembered = memo.result(for: value) { return .just(remembered) }
        let check = self.check
        let memo = self.memo
        let localizer = self.localizer
        return ask(value)
            .map { passed in
                let result = passed ? localizer.result(check.passed, .ok) : localizer.result(check.rejected, .failed)
                memo.remember(result, for: value)
                return result
            }
            .catchAndReturn(localizer.result(check.unavailable, .failed))
            .trackActivity(activity)
    }

    private func ask(_ value: String) -> EventStream<Bool> {
        switch check.kind {
        case .usernameAvailability:
            return services.availability.availability(of: value).map { $0 == .available }
        }
    }
}
