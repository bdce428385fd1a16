import Foundation
import SignupCore

/// The durable user directory: one SQLite file shared by every `signup-rpc` process that names it.
///
/// WAL journal with `synchronous=FULL`, so a registration is on disk before it is acknowledged;
/// usernames unique case-insensitively (Unicode lower-casing, not SQLite's ASCII-only NOCASE);
/// only password hashes are stored. It also keeps the friend list (see `UserStore+Friends`). Calls block and are serialised; make them off the event loop.
public final class UserStore: @unchecked Sendable {
    /// The schema this build writes; older stores are migrated when opened.
    public static let schemaVersion = 6

    public let path: String
    let connection: SQLiteConnection
    private let lock = NSLock()
    /// Registered names that look alike, found when this store was given skeletons (schema 5):
    /// both kept; empty for a store that had none, or had skeletons already.
    public internal(set) var lookAlikesFoundByMigration: [LookAlikeUsernames.Pair] = []

    /// Opens (creating and migrating as needed) the store at `path`.
    public init(path: String, busyTimeout: TimeSpan = .seconds(5)) throws(StoreError) {
        self.path = path
        connection = try SQLiteConnection(path: path, busyTimeout: busyTimeout)
        // Opening can meet a lock that SQLite answers at once, without waiting out the busy
        // timeout: another process's last connection folding the log into the file as it
        // closes, or recovering it as it opens. Those pass quickly, so try again a few times.
        var attempt = 0
        while true {
            do throws(StoreError) {
                try connection.execute("PRAGMA journal_mode=WAL")
                try connection.execute("PRAGMA synchronous=FULL")
                try migrate()
                return
            } catch {
                guard case .locked = error, attempt < Self.openRetries else { throw error }
                attempt += 1
                Thread.sleep(forTimeInterval: 0.01 * Double(attempt))
            }
        }
    }

    /// How often opening tries again after a lock answered at once (waiting 10, 20, … ms: about 2 s in all).
    private static let openRetries = 20

    /// Closes the store, folding its write-ahead log back into the database file so that a copy
    /// of that file alone is a whole backup once the last process has closed it. Waits for a call
    /// under way; later calls fail with `StoreError.closed`.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }

    /// Whether the name, or one that looks like it, is registered (compared case-insensitively).
    public func isRegistered(_ username: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            try !connection.query(
                "SELECT 1 FROM users WHERE username_key = ? UNION ALL SELECT 1 FROM username_skeletons WHERE skeleton = ? LIMIT 1",
                [.text(Self.key(username)), .text(ConfusableSkeleton.of(username))]).isEmpty
        }
    }

    /// Registers a name with a password hash, keeping the account's fields and claiming its unique
    /// values in one transaction (by this process or another, one claim of a value wins). Returns
    /// only after the transaction is committed to disk.
    public func register(
        _ username: String, passwordHash: String, at createdAt: Date = Date(), fields: AccountFields
    ) throws(StoreError) -> StoreRegistration {
        try locked { () throws(StoreError) -> StoreRegistration in
            var attempt = 0
            while true {
                do throws(StoreError) {
                    try connection.execute("BEGIN IMMEDIATE")
                    let outcome: StoreRegistration
                    do throws(StoreError) {
                        outcome = try insertAccount(username, passwordHash: passwordHash, at: createdAt, fields: fields)
                    } catch {
                        try? connection.execute("ROLLBACK")
                        throw error
                    }
                    try connection.execute(outcome == .registered ? "COMMIT" : "ROLLBACK")
                    return outcome
                } catch {
                    // The busy timeout already waited; a few more tries ride out a long writer.
                    if case .locked = error, attempt < 3 {
                        attempt += 1
                        continue
                    }
                    throw error
                }
            }
        }
    }

    /// Inside a transaction: the account, its fields, then its claims, each claim in name order.
    private func insertAccount(
        _ username: String, passwordHash: String, at createdAt: Date, fields: AccountFields
    ) throws(StoreError) -> StoreRegistration {
        let rows: [[SQLiteValue]]
        do throws(StoreError) {
            rows = try connection.query(
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                [.text(username), .text(Self.key(username)), .text(passwordHash), .integer(Int64(createdAt.timeIntervalSince1970 * 1000))])
        } catch {
            if SQLiteConnection.isUniqueViolation(error) { return .usernameTaken }
            throw error
        }
        guard case .integer(let account)? = rows.first?.first else {
            throw .sqlite(path: path, code: 0, message: "INSERT … RETURNING id returned nothing")
        }
        do throws(StoreError) {
            _ = try connection.query("INSERT INTO username_skeletons (skeleton, account) VALUES (?, ?)",
                                     [.text(ConfusableSkeleton.of(username)), .integer(account)])
        } catch {
            if SQLiteConnection.isUniqueViolation(error) { return .usernameTaken }
            throw error
        }
        for (field, value) in fields.values.sorted(by: { $0.key < $1.key }) {
            _ = try connection.query("INSERT INTO account_fields (account, kind, field, value) VALUES (?, ?, ?, ?)",
                                     [.integer(account), .text(fields.kind), .text(field), .text(value)])
        }
        for (field, folded) in fields.claims.sorted(by: { $0.key < $1.key }) {
            do throws(StoreError) {
                _ = try connection.query("INSERT INTO field_claims (kind, field, folded, account) VALUES (?, ?, ?, ?)",
                                         [.text(fields.kind), .text(field), .text(folded), .integer(account)])
            } catch {
                if SQLiteConnection.isUniqueViolation(error) { return .fieldTaken(field) }
                throw error
            }
        }
        return .registered
    }

    /// Whether an account of `kind` claimed `folded` in `field`.
    public func isClaimed(kind: String, field: String, folded: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            try !connection.query("SELECT 1 FROM field_claims WHERE kind = ? AND field = ? AND folded = ?",
                                  [.text(kind), .text(field), .text(folded)]).isEmpty
        }
    }

    /// The fields kept with the account of `username`, by name.
    public func fields(of username: String) throws(StoreError) -> [String: String] {
        try locked { () throws(StoreError) -> [String: String] in
            let rows = try connection.query(
                "SELECT f.field, f.value FROM account_fields f JOIN users u ON u.id = f.account WHERE u.username_key = ?",
                [.text(Self.key(username))])
            var fields: [String: String] = [:]
            for row in rows {
                if row.count == 2, case .text(let field) = row[0], case .text(let value) = row[1] { fields[field] = value }
            }
            return fields
        }
    }

    /// The stored hash for a name, or nil when it is not registered.
    public func passwordHash(of username: String) throws(StoreError) -> String? {
        try locked { () throws(StoreError) -> String? in
            let rows = try connection.query("SELECT password_hash FROM users WHERE username_key = ?", [.text(Self.key(username))])
            guard case .text(let hash)? = rows.first?.first else { return nil }
            return hash
        }
    }

    /// Records a login session by the digest of its token; the token itself is never stored.
    public func saveSession(token: String, for username: String, at createdAt: Date = Date()) throws(StoreError) {
        try locked { () throws(StoreError) in
            _ = try connection.query(
                "INSERT INTO sessions (token_digest, username_key, created_at) VALUES (?, ?, ?)",
                [.text(SHA256.hexDigest(token)), .text(Self.key(username)), .integer(Int64(createdAt.timeIntervalSince1970 * 1000))])
        }
    }

    /// The username a token was issued to, if it was.
    public func username(forToken token: String) throws(StoreError) -> String? {
        try locked { () throws(StoreError) -> String? in
            let rows = try connection.query(
                "SELECT u.username FROM sessions s JOIN users u ON u.username_key = s.username_key WHERE s.token_digest = ?",
                [.text(SHA256.hexDigest(token))])
            guard case .text(let name)? = rows.first?.first else { return nil }
            return name
        }
    }

    /// The registered names in the order they were registered, as written.
    public func registeredNames() throws(StoreError) -> [String] {
        try locked { () throws(StoreError) -> [String] in
            try connection.query("SELECT username FROM users ORDER BY id").compactMap { row in
                if case .text(let name)? = row.first { return name } else { return nil }
            }
        }
    }

    /// The result of SQLite's `PRAGMA integrity_check`: "ok" for a sound file.
    public func integrityCheck() throws(StoreError) -> String {
        try locked { () throws(StoreError) -> String in
            let rows = try connection.query("PRAGMA integrity_check")
            return rows.compactMap { row in if case .text(let text)? = row.first { return text } else { return nil } }
                .joined(separator: "\n")
        }
    }

    func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The case-insensitive identity of a name.
    static func key(_ username: String) -> String {
        username.lowercased()
    }
}
