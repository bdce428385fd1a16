import SignupCore

/// An in-memory user directory that answers as its script says, in scheduler time: the default
/// backend, and the one tests and fixtures use. A successful registration makes the name taken.
///
/// Names are compared case-insensitively, as user directories do, and a name that looks like an
/// account's (`ConfusableSkeleton`) is taken too. Passwords are kept only as
/// yescrypt hashes. Friends are kept by id; saving one whose phone number another friend has is a
/// conflict.
public final class ScriptedDirectory: UsernameAvailabilityChecking, AccountRegistering, Authenticating, FriendSaving, ScriptedAnswering {
    private let scheduler: any Scheduler
    private let script: Script
    private var generator: SeededGenerator
    private var taken: Set<String>
    /// The confusable skeletons of the accounts (seeded or registered): a name that looks like
    /// one is taken too. The script's own lists answer as written, look-alikes of them not.
    private var takenSkeletons: Set<String>
    /// What a check answers for each name the script or a registration mentions, by folded name:
    /// one lookup per check, where the script's lists (failing, then taken, then free) took three.
    private var listedVerdicts: [String: Script.Verdict]
    private let refused: Set<String>
    private let tokens: TokenSource
    /// yescrypt hashes of the passwords of accounts registered here, by lower-cased name.
    private var passwordHashes: [String: String]
    /// The friend list, by id.
    public private(set) var friends: [String: Friend]
    private var nextFriendNumber: Int

    /// Every name an availability check was started for, in order (cancelled ones included),
    /// when the directory records requests.
    public private(set) var checkedNames: [String] = []
    /// Every name registered, in order, when the directory records requests.
    public private(set) var registeredNames: [String] = []
    /// How many registrations were sent.
    public private(set) var registrationAttempts = 0
    private let recordsRequests: Bool
    /// The script's replies not used yet.
    private var replies: [Script.Reply]
    /// The unique values registered accounts claimed.
    private var claims: Set<Claim> = []

    /// `tokens` defaults to reproducible ones from the script's seed: this is a scripted backend.
    /// `recordsRequests` keeps `checkedNames` and `registeredNames` for tests to read; a server
    /// that runs for long turns it off, since the lists grow with every keystroke.
    public init(script: Script = Script(), scheduler: any Scheduler, tokens: TokenSource? = nil, recordsRequests: Bool = true) {
        self.recordsRequests = recordsRequests
        self.script = script
        replies = script.replies
        self.tokens = tokens ?? .reproducible(seed: script.seed)
        self.scheduler = scheduler
        generator = SeededGenerator(seed: script.seed)
        refused = Set(script.refusedRegistrations.map(Self.key))
        passwordHashes = Dictionary(script.accounts.map { (Self.key($0.key), $0.value) }, uniquingKeysWith: { $1 })
        taken = Set(script.takenNames.map(Self.key)).union(passwordHashes.keys)
        takenSkeletons = Set(passwordHashes.keys.map(ConfusableSkeleton.of))
        // Later lists win: free, then taken, then failing, as a check reads them the other way round.
        var verdicts: [String: Script.Verdict] = [:]
        for name in script.freeNames { verdicts[Self.key(name)] = .available }
        for name in taken { verdicts[name] = .taken }
        for name in script.failingNames { verdicts[Self.key(name)] = .unavailable }
        listedVerdicts = verdicts
        friends = script.friends
        nextFriendNumber = Self.friendNumber(after: script.friends.keys.compactMap { Int($0) }.max() ?? 0)
    }

    /// The answer a check would give now, without the latency.
    public func verdict(for username: String) -> Script.Verdict {
        // Most scripts name no one: answer them without folding the name and hashing it.
        // Looked up in a copy, so that no access to `listedVerdicts` spans the hashing's calls.
        let verdicts = listedVerdicts
        if verdicts.isEmpty { return script.defaultVerdict }
        if let listed = verdicts[Self.key(username)] { return listed }
        if !takenSkeletons.isEmpty, takenSkeletons.contains(ConfusableSkeleton.of(username)) { return .taken }
        return script.defaultVerdict
    }

    public func availability(of username: String) -> EventStream<Availability> {
        EventStream { observer in
            self.checkAvailability(of: username) { answer in
                switch answer {
                case .success(let availability):
                    observer.onNext(availability)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        }
    }

    /// Answers after the script's latency with a timer and nothing more.
    public func checkAvailability(
        of username: String, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable {
        if recordsRequests { checkedNames.append(username) }
        if let replied = replied(.availability(username: username), { answer -> Availability? in
            if case .availability(let value) = answer { value } else { nil }
        }) {
            return replied.subscribe(onNext: { answer(.success($0)) }, onError: { answer(.failure($0)) })
        }
        let latency = sample(script.checkLatency)
        return scheduler.schedule(after: latency) { [self] in
            switch verdict(for: username) {
            case .available: answer(.success(.available))
            case .taken: answer(.success(.taken))
            case .unavailable: answer(.failure(BackendError.unavailable(reason: "scripted server error")))
            }
        }
    }

    /// Answers a named check as the script (or a recording's reply) says, after its latency; nil
    /// for a check the script does not name and for `usernameAvailability`, which
    /// `checkAvailability` answers.
    public func answer(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> (any Disposable)? {
        if question.answerer == .directoryAvailability { return nil }
        if let replied = replied(BackendQuestion(question), { answer -> CheckVerdict? in
            if case .verdict(let verdict) = answer { verdict } else { nil }
        }) {
            return replied.subscribe(onNext: { answer(.success($0)) }, onError: { answer(.failure($0)) })
        }
        guard let scripted = script.checks[question.checkName] else { return nil }
        let latency = sample(scripted.latency)
        return scheduler.schedule(after: latency) { answer(scripted.answer(for: question.value)) }
    }

    /// Answers an `http` submission as the script (or a recording's reply) says, after its
    /// latency; nil for a kind the script does not name.
    public func answer(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer>? {
        let extract = { (answer: BackendAnswer) -> SubmissionAnswer? in if case .submission(let value) = answer { value } else { nil } }
        let question = BackendQuestion.submission(kind: request.kind, fields: request.fields)
        if let replied = replied(question, extract) { return replied }
        guard let scripted = script.submissions[request.kind] else { return nil }
        return EventStream { observer in
            let latency = self.sample(scripted.latency)
            return self.scheduler.schedule(after: latency) {
                scripted.answer(for: request.fields).deliver(to: observer, as: question, extract)
            }
        }
    }

    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        register(username: username, password: password, fields: AccountFields(kind: ""))
    }

    /// Registers as the script says, claiming the account's unique values in the same step.
    public func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome> {
        if let replied = replied(.registration(username: username, password: password), { answer -> RegistrationOutcome? in
            if case .registration(let value) = answer { value } else { nil }
        }) {
            return replied
        }
        return EventStream { observer in
            self.registrationAttempts += 1
            let latency = self.sample(self.script.registrationLatency)
            return self.scheduler.schedule(after: latency) {
                let outcome = self.completeRegistration(of: username, claiming: fields)
                if case .registered = outcome, let hash = try? PasswordHasher.hash(password) {
                    self.passwordHashes[Self.key(username)] = hash
                }
                observer.onNext(outcome)
                observer.onCompleted()
            }
        }
    }

    /// Checks the password against an account registered here. An unknown name is checked against
    /// a decoy hash, so it answers the same way in the same time as a wrong password.
    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        if let replied = replied(.login(username: username, password: password), { answer -> LoginOutcome? in
            if case .login(let value) = answer { value } else { nil }
        }) {
            return replied
        }
        return EventStream { observer in
            let latency = self.sample(self.script.checkLatency)
            return self.scheduler.schedule(after: latency) {
                let stored = self.passwordHashes[Self.key(username)]
                let matches = PasswordHasher.verify(password, against: stored ?? PasswordHasher.decoyHash)
                observer.onNext(matches && stored != nil ? .loggedIn(token: self.tokens.makeToken()) : .wrongCredentials)
                observer.onCompleted()
            }
        }
    }

    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        saving(friend, id: nil)
    }

    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        saving(friend, id: id)
    }

    private func saving(_ friend: Friend, id: String?) -> EventStream<FriendSaveOutcome> {
        let question: BackendQuestion = if let id { .updateFriend(id: id, friend) } else { .addFriend(friend) }
        if let replied = replied(question, { answer -> FriendSaveOutcome? in
            if case .friend(let value) = answer { value } else { nil }
        }) {
            return replied
        }
        return EventStream { observer in
            let latency = self.sample(self.script.registrationLatency)
            return self.scheduler.schedule(after: latency) {
                if self.script.failingPhones.contains(friend.phone) {
                    observer.onError(BackendError.unavailable(reason: "scripted server error"))
                    return
                }
                observer.onNext(self.completeSave(of: friend, id: id))
                observer.onCompleted()
            }
        }
    }

    private func sample(_ latency: Latency) -> TimeSpan {
        drawing { latency.sample(using: &$0) }
    }

    /// `body` given the generator read into a local, written back after: no access to it spans a
    /// call, so the compiler checks its accesses statically.
    private func drawing<Result>(_ body: (inout SeededGenerator) -> Result) -> Result {
        var local = generator
        defer { generator = local }
        return body(&local)
    }

    /// The answer a reply gives `question`, if the script has one for it: the first unused one.
    /// The question is built only when the script holds replies: most hold none, and a check's
    /// question gathers its inputs into a dictionary.
    private func replied<Value>(_ question: @autoclosure () -> BackendQuestion, _ extract: @escaping (BackendAnswer) -> Value?) -> EventStream<Value>? {
        guard !replies.isEmpty else { return nil }
        let question = question()
        // Searched and taken from moved out of the directory: no access to `replies` spans a call.
        var unused: [Script.Reply] = []
        swap(&unused, &replies)
        let reply = unused.firstIndex { $0.question == question }.map { unused.remove(at: $0) }
        swap(&unused, &replies)
        guard let reply else { return nil }
        return EventStream { observer in
            guard let answer = reply.answer else { return Disposables.empty }
            let delay = TimeSpan.milliseconds(max(0, reply.time - self.scheduler.now.milliseconds))
            return self.scheduler.schedule(after: delay) { answer.deliver(to: observer, as: question, extract) }
        }
    }

    private func completeSave(of friend: Friend, id: String?) -> FriendSaveOutcome {
        if let id {
            guard friends[id] != nil else { return .notFound }
            if script.protectedFriends.contains(id) { return .unauthorised }
        }
        if friends.contains(where: { $0.key != id && $0.value.phone == friend.phone }) { return .conflict }
        let savedID = id ?? newFriendID()
        friends[savedID] = friend
        return .saved(id: savedID)
    }

    /// The next numbered id no friend has, counting on from the last one given.
    private func newFriendID() -> String {
        while true {
            let id = String(nextFriendNumber)
            nextFriendNumber = Self.friendNumber(after: nextFriendNumber)
            if friends[id] == nil { return id }
        }
    }

    /// The number after `number`, or 1 after the largest `Int`.
    private static func friendNumber(after number: Int) -> Int {
        number == .max ? 1 : number + 1
    }

    private func completeRegistration(of username: String, claiming fields: AccountFields) -> RegistrationOutcome {
        let key = Self.key(username)
        if refused.contains(key) { return .refused(reason: "scripted refusal") }
        let skeleton = ConfusableSkeleton.of(username)
        if taken.contains(key) || takenSkeletons.contains(skeleton) { return .usernameTaken }
        // In field order of the claims' names, so the same registration reports the same field.
        for (field, folded) in fields.claims.sorted(by: { $0.key < $1.key })
        where claims.contains(Claim(kind: fields.kind, field: field, folded: folded)) {
            return .fieldTaken(field: field)
        }
        if script.registrationFailureRate > 0 && drawing({ $0.nextUnitInterval() }) < script.registrationFailureRate {
            return .refused(reason: "scripted random failure")
        }
        for (field, folded) in fields.claims { claims.insert(Claim(kind: fields.kind, field: field, folded: folded)) }
        taken.insert(key)
        takenSkeletons.insert(skeleton)
        // Changed moved out of the directory, so that no access to `listedVerdicts` spans a call.
        var verdicts: [String: Script.Verdict] = [:]
        swap(&verdicts, &listedVerdicts)
        if verdicts[key] != .unavailable { verdicts[key] = .taken }
        swap(&verdicts, &listedVerdicts)
        if recordsRequests { registeredNames.append(username) }
        return .registered(account: .object(["username": .string(username)]))
    }

    private static func key(_ username: String) -> String {
        username.lowercased()
    }

    /// A value an account claimed in a field a `unique` check keeps unique.
    private struct Claim: Hashable {
        let kind: String
        let field: String
        let folded: String
    }
}

extension ScriptedDirectory: UniqueValueChecking {
    /// Rejected when an account registered here claimed the value, after the check latency.
    public func checkUnique(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        let latency = sample(script.checkLatency)
        let claim = Claim(kind: question.formKind, field: question.field, folded: question.folded)
        return scheduler.schedule(after: latency) { [self] in
            answer(.success(claims.contains(claim) ? .rejected(nil) : .passed))
        }
    }
}
