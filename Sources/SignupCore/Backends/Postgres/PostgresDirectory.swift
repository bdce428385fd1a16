import Foundation

/// The user directory kept in a `PostgresStore`, as `SQLiteDirectory` keeps one in a file, plus a
/// login rate limit counted in the database, so that reaching another process (or machine)
/// does not reset it. Any store failure is a `BackendError`, shown as `backend.unavailable`.
public final class PostgresDirectory: UsernameAvailabilityChecking, AccountRegistering, Authenticating, FriendSaving {
    public let store: PostgresStore
    private let runner: any BlockingWorkRunner
    private let tokens: TokenSource
    /// Failed logins for one name within `window` that make the next attempts `rateLimited`.
    private let limit: Int
    private let window: TimeInterval

    public init(store: PostgresStore, runner: any BlockingWorkRunner, tokens: TokenSource = .secure(),
                loginLimit: Int = 5, loginWindow: TimeInterval = 60) {
        self.store = store
        self.runner = runner
        self.tokens = tokens
        limit = loginLimit
        window = loginWindow
    }

    public func availability(of username: String) -> EventStream<Availability> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.isRegistered(username) ? .taken : .available } }
    }

    /// Hashes the password off the loop, then inserts in one statement: the unique index decides
    /// a race between processes, and the loser is told the name is taken.
    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        let store = self.store
        return runner.run {
            Self.backendResult { () throws(StoreError) -> RegistrationOutcome in
                let hash: String
                do throws(PasswordHasher.Failure) {
                    hash = try PasswordHasher.hash(password)
                } catch {
                    throw .hashing(error.description)
                }
                guard try store.register(username, passwordHash: hash) else { return .usernameTaken }
                return .registered(account: .object(["username": .string(username)]))
            }
        }
    }

    /// Refused while the name has had `limit` failures within the window (in any process);
    /// otherwise verified against the stored hash (an unknown name against a decoy, alike in
    /// answer and time), a failure counted, a success recorded as a session by its token's digest.
    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        let store = self.store
        let tokens = self.tokens
        let limit = self.limit
        let window = self.window
        return runner.run {
            Self.backendResult { () throws(StoreError) -> LoginOutcome in
                let since = Date().addingTimeInterval(-window)
                if try store.loginFailures(of: username, since: since) >= limit { return .rateLimited }
                let stored = try store.passwordHash(of: username)
                let matches = PasswordHasher.verify(password, against: stored ?? PasswordHasher.decoyHash)
                guard matches, stored != nil else {
                    _ = try store.recordLoginFailure(of: username, countingSince: since)
                    return .wrongCredentials
                }
                let token = tokens.makeToken()
                try store.saveSession(token: token, for: username)
                return .loggedIn(token: token)
            }
        }
    }

    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.addFriend(friend) } }
    }

    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.updateFriend(id, to: friend) } }
    }

    private static func backendResult<Value>(_ body: () throws(StoreError) -> Value) -> Result<Value, BackendError> {
        do throws(StoreError) {
            return .success(try body())
        } catch {
            return .failure(.unavailable(reason: error.description))
        }
    }
}
