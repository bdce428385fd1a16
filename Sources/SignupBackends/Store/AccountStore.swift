import Foundation
import SignupCore

/// What a durable user directory keeps, whichever holds it: the SQLite file (`UserStore`) or the
/// PostgreSQL database (`PostgresStore`). Calls block; `StoreDirectory` makes them off the loop.
public protocol AccountStore: AnyObject, Sendable {
    /// Registered names that look alike, found when this store was first given confusable
    /// skeletons; both names of each pair are kept.
    var lookAlikesFoundByMigration: [LookAlikeUsernames.Pair] { get }
    /// Whether the name, or one that looks like it, is registered (compared case-insensitively).
    func isRegistered(_ username: String) throws(StoreError) -> Bool
    /// Registers a name with a password hash, keeping `fields` with the account and claiming its
    /// unique values in the same transaction: of two registrations (in any processes) that claim
    /// one name or one value, exactly one succeeds.
    func register(_ username: String, passwordHash: String, at createdAt: Date, fields: AccountFields) throws(StoreError) -> StoreRegistration
    /// Whether an account of `kind` claimed `folded` in `field`.
    func isClaimed(kind: String, field: String, folded: String) throws(StoreError) -> Bool
    /// The stored hash for a name, or nil when it is not registered.
    func passwordHash(of username: String) throws(StoreError) -> String?
    /// Records a login session by the digest of its token.
    func saveSession(token: String, for username: String, at createdAt: Date) throws(StoreError)
    func addFriend(_ friend: Friend, at time: Date) throws(StoreError) -> FriendSaveOutcome
    func updateFriend(_ id: String, to friend: Friend, at time: Date) throws(StoreError) -> FriendSaveOutcome
    /// Failed logins of the name since `since`, as every process sharing the store counted them;
    /// nil for a store that counts none (each process's own `LoginRateLimiter` does).
    func sharedLoginFailures(of username: String, since: Date) throws(StoreError) -> Int?
    /// Counts a failed login where every process sharing the store sees it, if the store counts them.
    func recordLoginFailure(of username: String, at time: Date) throws(StoreError)
    /// Counts one availability check where every process sharing the store sees it, unless
    /// `limit` were asked in the window of `window` seconds that holds `time`: then counts nothing
    /// and returns how long until the next window. Nil for a store that counts none (each process's `CheckBudget` does).
    func spendSharedCheck(limit: Int, window: TimeInterval, at time: Date) throws(StoreError) -> TimeInterval?
    /// Closes the store as the process ends; later calls fail with `StoreError.closed`.
    func close()
}

/// How a store's registration ended.
public enum StoreRegistration: Hashable, Sendable {
    case registered
    case usernameTaken
    /// Another account of the kind claimed the value of this field.
    case fieldTaken(String)
}

extension AccountStore {
    /// Registers a name with nothing else to keep; false when the name is taken (by any process).
    public func register(_ username: String, passwordHash: String, at createdAt: Date = Date()) throws(StoreError) -> Bool {
        try register(username, passwordHash: passwordHash, at: createdAt, fields: AccountFields(kind: "")) == .registered
    }
}

extension UserStore: AccountStore {
    /// A local file is shared by one machine's processes; each counts its own failed logins.
    public func sharedLoginFailures(of username: String, since: Date) throws(StoreError) -> Int? { nil }
    public func recordLoginFailure(of username: String, at time: Date) throws(StoreError) {}
    public func spendSharedCheck(limit: Int, window: TimeInterval, at time: Date) throws(StoreError) -> TimeInterval? { nil }
}
