import SignupCore
import SignupServer

/// A backend that answers as a recording says: each question is matched to the first recorded
/// question like it not yet asked, and answered at the time the recording answered it. An answer
/// recorded after an input in the same millisecond waits for that input (`inputsStarted`), so
/// ties replay in the order the recorded loop took them; it is given while that input is handled,
/// as due work (a `clock.advance` runs it before its response, as the live loop did), or at the
/// latest once the input is handled. An answer recorded right after its question, in the same
/// millisecond, was given as the question was asked (a cache's), and is given so again. A
/// question the recording never asked, or never answered, is not answered.
final class ReplayedBackend: UsernameAvailabilityChecking, RemoteChecking, SubmissionSending, AccountRegistering, Authenticating,
    FriendSaving {
    struct RecordedAnswer {
        var time: Int64
        var answer: BackendAnswer
        /// How many inputs the recording took before this answer.
        var inputsBefore: Int
        /// Its place among the recorded answers.
        var order: Int
        /// Whether it was recorded right after its question, in the same millisecond.
        var wasImmediate: Bool
    }

    private let scheduler: VirtualTimeScheduler
    /// Recorded questions not matched yet, in the order they were asked.
    private var unmatched: [(number: Int, question: BackendQuestion)] = []
    private var answers: [Int: RecordedAnswer] = [:]
    /// Answers due whose input has not been taken yet, in the recording's order.
    private var held: [(order: Int, inputsBefore: Int, token: Int, deliver: () -> Void)] = []
    /// Held answers whose input has begun, due on the scheduler while it is handled.
    private var released: [(order: Int, token: Int, timer: any Disposable, deliver: () -> Void)] = []
    private var nextToken = 0
    /// How many inputs the replay has begun to handle.
    var inputsStarted = 0
    /// Questions the server asked that the recording did not.
    private(set) var unrecordedQuestions: [BackendQuestion] = []

    package init(recording: Recording, scheduler: VirtualTimeScheduler) {
        self.scheduler = scheduler
        var inputs = 0
        var previous: (ask: Int, time: Int64)?
        for entry in recording.entries {
            var asked: (ask: Int, time: Int64)?
            switch entry {
            case .input: inputs += 1
            case .ask(let time, let number, let question):
                unmatched.append((number, question))
                asked = (number, time)
            case .answer(let time, let number, let answer):
                answers[number] = RecordedAnswer(
                    time: time, answer: answer, inputsBefore: inputs, order: answers.count,
                    wasImmediate: previous?.ask == number && previous?.time == time)
            default: break
            }
            previous = asked
        }
    }

    /// As the input just begun is handled: the answers that were waiting for it fall due now, so
    /// that due work it runs (a `clock.advance`) gives them in the recorded order.
    func inputBegan() {
        let ready = held.filter { $0.inputsBefore <= inputsStarted }.sorted { $0.order < $1.order }
        held.removeAll { $0.inputsBefore <= inputsStarted }
        for entry in ready {
            let token = entry.token
            let timer = scheduler.schedule(after: .zero) { [self] in
                guard let index = released.firstIndex(where: { $0.token == token }) else { return }
                released.remove(at: index).deliver()
            }
            released.append((entry.order, token, timer, entry.deliver))
        }
    }

    /// Once the input is handled: the answers it released that no due work gave yet.
    func releaseHeld() {
        let ready = released.sorted { $0.order < $1.order }
        released.removeAll()
        for entry in ready {
            entry.timer.dispose()
            entry.deliver()
        }
    }

    private func ask(_ question: BackendQuestion, answer deliver: @escaping (BackendAnswer) -> Void) -> any Disposable {
        guard let index = unmatched.firstIndex(where: { $0.question == question }) else {
            unrecordedQuestions.append(question)
            return Disposables.empty
        }
        let number = unmatched.remove(at: index).number
        guard let recorded = answers[number] else { return Disposables.empty }
        let answer = recorded.answer
        if recorded.wasImmediate, recorded.time <= scheduler.now.milliseconds, inputsStarted >= recorded.inputsBefore {
            deliver(answer)
            return Disposables.empty
        }
        nextToken += 1
        let token = nextToken
        var isCancelled = false
        let delay = TimeSpan.milliseconds(max(0, recorded.time - scheduler.now.milliseconds))
        let timer = scheduler.schedule(after: delay) { [self] in
            guard !isCancelled else { return }
            if inputsStarted >= recorded.inputsBefore {
                deliver(answer)
            } else {
                held.append((recorded.order, recorded.inputsBefore, token, { if !isCancelled { deliver(answer) } }))
            }
        }
        return Disposables.create { [self] in
            isCancelled = true
            timer.dispose()
            held.removeAll { $0.token == token }
            if let index = released.firstIndex(where: { $0.token == token }) { released.remove(at: index).timer.dispose() }
        }
    }

    private func stream<Value>(_ question: BackendQuestion, _ extract: @escaping (BackendAnswer) -> Value?) -> EventStream<Value> {
        EventStream { observer in
            self.ask(question) { answer in answer.deliver(to: observer, as: question, extract) }
        }
    }

    func availability(of username: String) -> EventStream<Availability> {
        stream(.availability(username: username)) { if case .availability(let value) = $0 { value } else { nil } }
    }

    func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        let asked = BackendQuestion(question)
        return ask(asked) { recorded in
            switch recorded {
            case .availability(let availability): answer(.success(CheckVerdict(availability)))
            case .verdict(let verdict): answer(.success(verdict))
            case .failure(let error): answer(.failure(error))
            default: answer(.failure(BackendError.unavailable(reason: "\(asked.call) was answered with another call's answer")))
            }
        }
    }

    package func send(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer> {
        stream(.submission(kind: request.kind, fields: request.fields)) { if case .submission(let value) = $0 { value } else { nil } }
    }

    package func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        stream(.registration(username: username, password: password)) { if case .registration(let value) = $0 { value } else { nil } }
    }

    /// As recorded: the question a registration makes is its name and password alone.
    package func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome> {
        register(username: username, password: password)
    }

    func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        stream(.login(username: username, password: password)) { if case .login(let value) = $0 { value } else { nil } }
    }

    package func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        stream(.addFriend(friend)) { if case .friend(let value) = $0 { value } else { nil } }
    }

    func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        stream(.updateFriend(id: id, friend)) { if case .friend(let value) = $0 { value } else { nil } }
    }
}
