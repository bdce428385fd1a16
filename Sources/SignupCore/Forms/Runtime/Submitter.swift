/// What a running submission reports back: its next state, or a refusal whose issues about
/// fields go on those fields while the submission fails.
enum SubmissionStep {
    case state(SubmissionState)
    case refused(fieldIssues: [ReportedIssue], failure: SubmissionFailure)
}

/// Runs a form's submit action (`FormEffect.submit`) on the values snapshotted at the tap.
struct Submitter {
    let definition: FormDefinition
    let services: FormServices
    let localizer: Localizer
    /// The record a saving form updates; nil while it adds. A successful add sets it, so saving
    /// again updates the friend just added instead of adding a twin.
    let record: RecordIdentity

    /// The outcome of one submission of `values` (every field's, by position, as at the tap), the
    /// fields named in `leftOut` (hidden) not sent; a backend error ends it as `unavailable`.
    func run(with values: [String], leavingOut leftOut: Set<String> = []) -> EventStream<SubmissionStep> {
        let value = { (name: String) -> String in
            definition.index(of: name).map { definition.fields[$0].normalized(values[$0]) } ?? ""
        }
        let outcomes: EventStream<SubmissionState>
        switch definition.submit.kind {
        case .http(let submission):
            let fields = Dictionary(definition.fields.indices.filter { !leftOut.contains(definition.fields[$0].name) }
                .map { (definition.fields[$0].name, value(definition.fields[$0].name)) }, uniquingKeysWith: { first, _ in first })
            return send(SubmissionRequest(kind: definition.kind, submission: submission, fields: fields))
                .catchAndReturn(.state(failed(.unavailable)))
        case .registerAccount(let usernameField, let passwordField):
            return register(username: value(usernameField), password: value(passwordField), fields: accountFields(value, leavingOut: leftOut))
                .catchAndReturn(.state(failed(.unavailable)))
        case .logIn(let usernameField, let passwordField):
            outcomes = logIn(username: value(usernameField), password: value(passwordField))
        case .saveFriend(let firstName, let lastName, let phone):
            outcomes = save(Friend(firstName: value(firstName), lastName: value(lastName), phone: value(phone)))
        }
        return outcomes.catchAndReturn(failed(.unavailable)).map(SubmissionStep.state)
    }

    /// An `http` submission: a 2xx body is the result, with the members the form keeps secret
    /// masked; a 4xx body's issues about fields go on them, and the first about the whole (or
    /// `refused`, with the status) fails the submission.
    private func send(_ request: SubmissionRequest) -> EventStream<SubmissionStep> {
        let fieldNames = definition.fields.map(\.name)
        let secrets = definition.fields.compactMap { field in field.isSecret ? request.fields[field.name].flatMap { $0.isEmpty ? nil : $0 } : nil }
        return services.submissions.send(request).map { answer in
            switch answer {
            case .accepted(let body):
                return .state(.succeeded(account: request.submission.masked(body, hiding: secrets)))
            case .refused(let status, let body):
                let issues = (body.flatMap { ReportedIssues.read($0, fields: fieldNames) } ?? []).map { $0.hiding(secrets) }
                let failure = issues.first { $0.field == nil }.map { issue in
                    SubmissionFailure(code: issue.code, params: issue.params, message: Message(issue.code, issue.message).render(issue.params))
                } ?? self.failure(.refused, params: ["status": .int(Int64(status))])
                let fieldIssues = issues.filter { $0.field != nil }
                return fieldIssues.isEmpty ? .state(.failed(failure)) : .refused(fieldIssues: fieldIssues, failure: failure)
            }
        }
    }

    private func failure(_ failure: SubmitAction.Failure, params: [String: JSONValue] = [:]) -> SubmissionFailure {
        localizer.failure(definition.submit.message(for: failure), params: params)
    }

    private func failed(_ failure: SubmitAction.Failure, params: [String: JSONValue] = [:]) -> SubmissionState {
        .failed(localizer.failure(definition.submit.message(for: failure), params: params))
    }

    /// What a registration keeps: the non-secret fields' values, and the values the form's
    /// `unique` checks claim.
    private func accountFields(_ value: (String) -> String, leavingOut leftOut: Set<String>) -> AccountFields {
        var fields = AccountFields(kind: definition.kind)
        for field in definition.fields where !field.isSecret && !leftOut.contains(field.name) {
            fields.values[field.name] = value(field.name)
            if field.uniqueCheck != nil {
                fields.claims[field.name] = field.comparable(value(field.name))
            }
        }
        return fields
    }

    /// A registration; a value another account claimed since its check goes on its field, with
    /// that check's `rejected` message, and the submission fails as refused.
    private func register(username: String, password: String, fields: AccountFields) -> EventStream<SubmissionStep> {
        return services.registration.register(username: username, password: password, fields: fields).map { outcome in
            switch outcome {
            case .registered(let account):
                return .state(.succeeded(account: account))
            case .usernameTaken:
                return .state(self.failed(.taken))
            case .refused(_, let details):
                return .state(self.failed(.refused, params: details))
            case .fieldTaken(let name):
                let unique = self.definition.fields.first { $0.name == name }?.uniqueCheck
                let rejected = unique?.rejected ?? Message("\(name).taken", "Already taken")
                let issue = ReportedIssue(field: name, code: rejected.code, message: self.localizer.text(rejected))
                return .refused(fieldIssues: [issue], failure: self.failure(.refused, params: ["field": .string(name)]))
            }
        }
    }

    private func logIn(username: String, password: String) -> EventStream<SubmissionState> {
        let limiter = services.loginLimiter
        if limiter?.isLimited(username) == true {
            return .just(failed(.rateLimited))
        }
        guard let authentication = services.authentication else {
            return .just(failed(.unavailable))
        }
        return authentication.logIn(username: username, password: password).map { outcome in
            switch outcome {
            case .loggedIn(let token):
                limiter?.recordSuccess(username)
                return .succeeded(account: .object(["username": .string(username), "token": .string(token)]))
            case .wrongCredentials:
                limiter?.recordFailure(username)
                return self.failed(.wrongCredentials)
            case .rateLimited:
                return self.failed(.rateLimited)
            }
        }
    }

    private func save(_ friend: Friend) -> EventStream<SubmissionState> {
        guard let friends = services.friends else { return .just(failed(.unavailable)) }
        let record = self.record
        let saving = record.id.map { friends.update($0, to: friend) } ?? friends.add(friend)
        return saving.map { outcome in
            switch outcome {
            case .saved(let id):
                record.id = id
                return .succeeded(account: friend.json(id: id))
            case .notFound: return self.failed(.notFound)
            case .unauthorised: return self.failed(.unauthorised)
            case .conflict: return self.failed(.conflict)
            }
        }
    }
}

/// The id of the record a form saves to, shared by its submissions.
final class RecordIdentity {
    var id: String?
    init(_ id: String?) { self.id = id }
}
