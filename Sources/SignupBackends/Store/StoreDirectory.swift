import Foundation
import SignupCore

/// The user directory kept in an `AccountStore` (the SQLite file or the PostgreSQL database):
/// availability reads the store, registration hashes the password (off the event loop) and
/// inserts. A registration that loses a race to another process answers `usernameTaken`.
/// Friends go to the store's friend table; a store has no owners, so saving never answers
/// `unauthorised`. Any store failure is a `BackendError`, shown as `backend.unavailable`.
public final class StoreDirectory<Store: AccountStore>: UsernameAvailabilityChecking, AccountRegistering, Authenticating, FriendSaving {
    public let store: Store
    private let runner: any BlockingWorkRunner
    private let tokens: TokenSource

    /// A store that counts failed logins for every process refuses a name's attempts once it has
    /// had this many within `loginWindow` (the same bounds as `LoginRateLimiter`'s).
    static var loginLimit: Int { 5 }
    static var loginWindow: TimeInterval { 60 }

    /// Availability checks every process may ask per minute, on a store that counts them for all
    /// (PostgreSQL); nil or 0 for no shared bound.
    public let sharedChecksPerMinute: Int?

    public init(store: Store, runner: any BlockingWorkRunner, tokens: TokenSource = .secure(), sharedChecksPerMinute: Int? = nil) {
        self.store = store
        self.runner = runner
        self.tokens = tokens
        self.sharedChecksPerMinute = sharedChecksPerMinute.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Asks the store an availability question (`body`) once the store's shared budget allows
    /// it; a spent budget answers `checkBudgetExceeded` and asks nothing.
    private static func withinSharedBudget<Value>(
        _ store: Store, limit: Int?, fromAQuietClient quiet: Bool = false, _ body: () throws(StoreError) -> Value
    ) -> Result<Value, BackendError> {
        backendResult { () throws(StoreError) -> Result<Value, BackendError> in
            // A quiet client is answered even when the budget is spent: it slows a harvester
            // without denying the others.
            if let limit, let wait = try store.spendSharedCheck(limit: limit, window: 60, at: Date()), !quiet {
                return .failure(.checkBudgetExceeded(CheckBudget.Exceeded(retryAfter: .milliseconds(Int64(wait * 1000)))))
            }
            return .success(try body())
        }.flatMap { $0 }
    }

    /// Refused while a store that counts for every process has seen too many failures lately;
    /// otherwise verifies the password against the stored hash (an unknown name against a decoy,
    /// so both answer alike in the same time), counts a failure, or records the new session by
    /// its token's digest.
    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        let store = self.store
        let tokens = self.tokens
        return runner.run(on: .hashing) {
            Self.backendResult { () throws(StoreError) -> LoginOutcome in
                let now = Date()
                if let failures = try store.sharedLoginFailures(of: username, since: now.addingTimeInterval(-Self.loginWindow)),
                   failures >= Self.loginLimit {
                    return .rateLimited
                }
                let stored = try store.passwordHash(of: username)
                let matches = PasswordHasher.verify(password, against: stored ?? PasswordHasher.decoyHash)
                guard matches, stored != nil else {
                    try store.recordLoginFailure(of: username, at: now)
                    return .wrongCredentials
                }
                let token = tokens.makeToken()
                try store.saveSession(token: token, for: username, at: now)
                return .loggedIn(token: token)
            }
        }
    }

    public func availability(of username: String) -> EventStream<Availability> {
        availability(of: username, fromAQuietClient: false)
    }

    private func availability(of username: String, fromAQuietClient quiet: Bool) -> EventStream<Availability> {
        let store = self.store, limit = sharedChecksPerMinute
        return runner.run {
            Self.withinSharedBudget(store, limit: limit, fromAQuietClient: quiet) { () throws(StoreError) in
                try store.isRegistered(username) ? .taken : .available
            }
        }
    }

    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        register(username: username, password: password, fields: AccountFields(kind: ""))
    }

    /// Hashes the password, then registers the name with the account's fields and claims in one
    /// transaction; a value another process claimed first answers `fieldTaken`.
    public func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome> {
        let store = self.store
        return runner.run(on: .hashing) {
            Self.backendResult { () throws(StoreError) -> RegistrationOutcome in
                let hash: String
                do throws(PasswordHasher.Failure) {
                    hash = try PasswordHasher.hash(password)
                } catch {
                    throw .hashing(error.description)
                }
                switch try store.register(username, passwordHash: hash, at: Date(), fields: fields) {
                case .registered: return .registered(account: .object(["username": .string(username)]))
                case .usernameTaken: return .usernameTaken
                case .fieldTaken(let field): return .fieldTaken(field: field)
                }
            }
        }
    }

    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.addFriend(friend, at: Date()) } }
    }

    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.updateFriend(id, to: friend, at: Date()) } }
    }

    /// Whether the password matches the stored hash; false for an unknown name.
    public func verify(username: String, password: String) throws(StoreError) -> Bool {
        guard let hash = try store.passwordHash(of: username) else { return false }
        return PasswordHasher.verify(password, against: hash)
    }

    static func backendResult<Value>(_ body: () throws(StoreError) -> Value) -> Result<Value, BackendError> {
        do throws(StoreError) {
            return .success(try body())
        } catch {
            return .failure(.unavailable(reason: error.description))
        }
    }
}

extension StoreDirectory: UniqueValueChecking {
    /// Reads the store's claims off the event loop: rejected when an account claimed the value.
    public func checkUnique(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        let store = self.store, limit = sharedChecksPerMinute
        let (kind, field, folded, quiet) = (question.formKind, question.field, question.folded, question.isFromAQuietClient)
        return runner.run {
            Self.withinSharedBudget(store, limit: limit, fromAQuietClient: quiet) { () throws(StoreError) -> CheckVerdict in
                try store.isClaimed(kind: kind, field: field, folded: folded) ? .rejected(nil) : .passed
            }
        }.subscribe(onNext: { answer(.success($0)) }, onError: { answer(.failure($0)) })
    }
}

/// The directory in an SQLite file, shared by one machine's processes.
public typealias SQLiteDirectory = StoreDirectory<UserStore>
/// The directory in a PostgreSQL database, shared by processes on any number of machines.
public typealias PostgresDirectory = StoreDirectory<PostgresStore>

extension StoreDirectory: SharedCheckBudgetHolding {
    public func checkAvailability(
        of username: String, fromAQuietClient quiet: Bool, answer: @escaping (Result<Availability, any Error>) -> Void
    ) -> any Disposable {
        availability(of: username, fromAQuietClient: quiet).subscribe(onNext: { answer(.success($0)) }, onError: { answer(.failure($0)) })
    }
}
