/// A form's backends with an observer looking on: every question, its answer or its withdrawal
/// is told to the observer (a session recording) as it happens, and passed on unchanged.
public final class ObservedBackend: UsernameAvailabilityChecking, RemoteChecking, SubmissionSending, AccountRegistering, Authenticating,
    FriendSaving {
    private let services: FormServices
    private let observer: any BackendObserver

    public init(_ services: FormServices, observer: any BackendObserver) {
        self.services = services
        self.observer = observer
    }

    /// The same services, each role observed (a role the backend lacks stays missing).
    public static func observing(_ services: FormServices, with observer: any BackendObserver) -> FormServices {
        let backend = ObservedBackend(services, observer: observer)
        return FormServices(
            availability: backend, registration: backend,
            authentication: services.authentication == nil ? nil : backend,
            friends: services.friends == nil ? nil : backend,
            loginLimiter: services.loginLimiter)
    }

    public func availability(of username: String) -> EventStream<Availability> {
        observed(.availability(username: username), services.availability.availability(of: username), BackendAnswer.availability)
    }

    public func checkAvailability(
        of username: String, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable {
        observedCall(.availability(username: username), answer: answer, recorded: BackendAnswer.availability) { heard in
            services.availability.checkAvailability(of: username, answer: heard)
        }
    }

    /// Every kind of check, observed as the question it makes (`BackendQuestion.init(_:)`).
    public func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        if question.answerer == .directoryAvailability {
            return checkAvailability(of: question.value) { answer($0.map(CheckVerdict.init)) }
        }
        return observedCall(BackendQuestion(question), answer: answer, recorded: BackendAnswer.verdict) { heard in
            services.checks.ask(question, answer: heard)
        }
    }

    /// A call answered through one callback, observed: its question told as it starts, its answer
    /// or its withdrawal as they come.
    private func observedCall<Value>(
        _ asked: BackendQuestion, answer: @escaping (Result<Value, any Error>) -> Void, recorded: @escaping (Value) -> BackendAnswer,
        start: (@escaping (Result<Value, any Error>) -> Void) -> any Disposable
    ) -> any Disposable {
        let question = Question(asked, observer: observer)
        let call = start { result in
            switch result {
            case .success(let value): question.end(with: recorded(value))
            case .failure(let error): question.end(with: .failure(Self.backendError(error)))
            }
            answer(result)
        }
        return Disposables.create {
            question.withdraw()
            call.dispose()
        }
    }

    public func send(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer> {
        observed(.submission(kind: request.kind, fields: request.fields), services.submissions.send(request), BackendAnswer.submission)
    }

    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        observed(.registration(username: username, password: password),
                 services.registration.register(username: username, password: password), BackendAnswer.registration)
    }

    public func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome> {
        observed(.registration(username: username, password: password),
                 services.registration.register(username: username, password: password, fields: fields), BackendAnswer.registration)
    }

    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        guard let authentication = services.authentication else { return .fail(BackendError.unavailable(reason: "no login backend")) }
        return observed(.login(username: username, password: password),
                        authentication.logIn(username: username, password: password), BackendAnswer.login)
    }

    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        guard let friends = services.friends else { return .fail(BackendError.unavailable(reason: "no friends backend")) }
        return observed(.addFriend(friend), friends.add(friend), BackendAnswer.friend)
    }

    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        guard let friends = services.friends else { return .fail(BackendError.unavailable(reason: "no friends backend")) }
        return observed(.updateFriend(id: id, friend), friends.update(id, to: friend), BackendAnswer.friend)
    }

    /// One question as the observer sees it: asked when made, then answered or withdrawn, once.
    private final class Question {
        private let number: Int
        private let observer: any BackendObserver
        private var isOver = false

        init(_ question: BackendQuestion, observer: any BackendObserver) {
            self.observer = observer
            number = observer.backendAsked(question)
        }

        func end(with answer: @autoclosure () -> BackendAnswer) {
            guard !isOver else { return }
            isOver = true
            observer.backendAnswered(number, answer())
        }

        func withdraw() {
            guard !isOver else { return }
            isOver = true
            observer.backendCancelled(number)
        }
    }

    private func observed<Value>(
        _ question: BackendQuestion, _ stream: EventStream<Value>, _ answer: @escaping (Value) -> BackendAnswer
    ) -> EventStream<Value> {
        EventStream { [observer] downstream in
            let asked = Question(question, observer: observer)
            let subscription = stream.subscribe(Observer { event in
                switch event {
                case .next(let value):
                    asked.end(with: answer(value))
                    downstream.onNext(value)
                case .error(let error):
                    asked.end(with: .failure(Self.backendError(error)))
                    downstream.onError(error)
                case .completed:
                    downstream.onCompleted()
                }
            })
            return Disposables.create {
                asked.withdraw()
                subscription.dispose()
            }
        }
    }

    /// Errors as the forms show them: a `BackendError`, or anything else as unavailable.
    static func backendError(_ error: any Error) -> BackendError {
        (error as? BackendError) ?? .unavailable(reason: String(describing: error))
    }
}
