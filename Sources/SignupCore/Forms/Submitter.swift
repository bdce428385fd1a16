/// Runs a form's submit action: one submission at a time, on the values snapshotted at the tap.
struct Submitter {
    let definition: FormDefinition
    let services: FormServices
    let activity: ActivityTracker
    let localizer: Localizer
    let onSuccess: () -> Void

    /// The submission states caused by accepted taps. A tap during a submission is ignored here
    /// (flatMapFirst): a running registration is never cancelled by a newer one.
    func states(taps: EventStream<Void>, values: EventStream<FormValues>) -> EventStream<SubmissionState> {
        taps.withLatestFrom(values).flatMapFirst { snapshot in
            self.run(with: snapshot).startWith(.submitting).trackActivity(self.activity)
        }
    }

    private func run(with snapshot: FormValues) -> EventStream<SubmissionState> {
        let action = definition.submit
        let value = { (name: String) -> String in
            definition.index(of: name).map { definition.fields[$0].normalized(snapshot.values[$0]) } ?? ""
        }
        let onSuccess = self.onSuccess
        let localizer = self.localizer
        switch action.kind {
        case .logIn(let usernameField, let passwordField):
            return logIn(username: value(usernameField), password: value(passwordField), action: action, localizer: localizer)
        case .registerAccount(let usernameField, let passwordField):
            return services.registration
                .register(username: value(usernameField), password: value(passwordField))
                .map { outcome -> SubmissionState in
                    switch outcome {
                    case .registered(let account):
                        onSuccess()
                        return .succeeded(account: account)
                    case .usernameTaken:
                        return .failed(localizer.failure(action.taken))
                    case .refused(_, let details):
                        return .failed(localizer.failure(action.refused, params: details))
                    }
                }
                .catchAndReturn(.failed(localizer.failure(action.unavailable)))
        }
    }

    private func logIn(username: String, password: String, action: SubmitAction, localizer: Localizer) -> EventStream<SubmissionState> {
        let limiter = services.loginLimiter
        if limiter?.isLimited(username) == true {
            return .just(.failed(localizer.failure(action.rateLimited)))
        }
        guard let authentication = services.authentication else {
            return .just(.failed(localizer.failure(action.unavailable)))
        }
        return authentication.logIn(username: username, password: password)
            .map { outcome -> SubmissionState in
                switch outcome {
                case .loggedIn(let token):
                    limiter?.recordSuccess(username)
                    return .succeeded(account: .object(["username": .string(username), "token": .string(token)]))
                case .wrongCredentials:
                    limiter?.recordFailure(username)
                    return .failed(localizer.failure(action.refused))
                }
            }
            .catchAndReturn(.failed(localizer.failure(action.unavailable)))
    }
}
