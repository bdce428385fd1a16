/// The user directory kept in a `UserStore`: availability reads the table, registration hashes the
/// password (off the event loop) and inserts. A registration that loses a race to another process
/// answers `usernameTaken`. Friends go to the store's friend table; a local file has no owners, so
/// saving never answers `unauthorised`. Any store failure is a `BackendError`, shown as `backend.unavailable`.
public final class SQLiteDirectory: UsernameAvailabilityChecking, AccountRegistering, Authenticating, FriendSaving {
    public let store: UserStore
    private let runner: any BlockingWorkRunner
    private let tokens: TokenSource

    public init(store: UserStore, runner: any BlockingWorkRunner, tokens: TokenSource = .secure()) {
        self.store = store
        self.runner = runner
        self.tokens = tokens
    }

    /// Verifies the password against the stored hash (an unknown name against a decoy, so both
    /// answer alike in the same time) and records the new session by its token's digest.
    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        let store = self.store
        let tokens = self.tokens
        return runner.run {
            Self.backendResult { () throws(StoreError) -> LoginOutcome in
                let stored = try store.passwordHash(of: username)
                let matches = PasswordHasher.verify(password, against: stored ?? PasswordHasher.decoyHash)
                guard matches, stored != nil else { return .wrongCredentials }
                let token = tokens.makeToken()
                try store.saveSession(token: token, for: username)
                return .loggedIn(token: token)
            }
        }
    }

    public func availability(of username: String) -> EventStream<Availability> {
        let store = self.store
        return runner.run {
            Self.backendResult { () throws(StoreError) in try store.isRegistered(username) ? .taken : .available }
        }
    }

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

    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.addFriend(friend) } }
    }

    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        let store = self.store
        return runner.run { Self.backendResult { () throws(StoreError) in try store.updateFriend(id, to: friend) } }
    }

    /// Whether the password matches the stored hash; false for an unknown name.
    public func verify(username: String, password: String) throws(StoreError) -> Bool {
        guard let hash = try store.passwordHash(of: username) else { return false }
        return PasswordHasher.verify(password, against: hash)
    }

    private static func backendResult<Value>(_ body: () throws(StoreError) -> Value) -> Result<Value, BackendError> {
        do throws(StoreError) {
            return .success(try body())
        } catch {
            return .failure(.unavailable(reason: error.description))
        }
    }
}
