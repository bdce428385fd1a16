import Foundation
import SignupCore

/// The user directory in PostgreSQL, shared by every `signup-rpc` process, on any machine, that
/// names the same database: usernames unique case-insensitively by a unique index the database
/// enforces, only password hashes and token digests stored, login failures counted in the
/// database so a rate limit holds across processes. Calls block; make them off the event loop.
///
/// A small pool of connections; each statement runs with a timeout. A lost connection is
/// retried on a new one with backoff, and then reported as `StoreError.databaseUnreachable`, so
/// callers show the server-error outcome and the process goes on; the next call connects again.
public final class PostgresStore: @unchecked Sendable {
    /// The schema this build writes; older databases are migrated by the first process to start.
    public static let schemaVersion = 4

    /// The connection string as given (it may hold a password: never shown).
    private let conninfo: String
    /// The database as shown in messages: the connection string without its password.
    public let target: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var isClosed = false
    private let poolSize: Int
    private let statementTimeout: TimeSpan
    private let retryDelays: [TimeSpan]
    /// Registered names that look alike, found when this process gave the database skeletons
    /// (schema 3): both kept; empty when another process had done it, or there were none.
    public internal(set) var lookAlikesFoundByMigration: [LookAlikeUsernames.Pair] = []

    /// Connects, creating or migrating the schema (once, whichever process gets there first).
    public init(
        conninfo: String, poolSize: Int = 4, statementTimeout: TimeSpan = .seconds(5),
        retryDelays: [TimeSpan] = [.milliseconds(100), .milliseconds(400), .milliseconds(1600)]
    ) throws(StoreError) {
        self.conninfo = Self.withConnectTimeout(conninfo)
        target = Self.redacted(conninfo)
        self.poolSize = max(1, poolSize)
        self.statementTimeout = statementTimeout
        self.retryDelays = retryDelays
        try migrate()
    }

    /// Ends every connection; later calls fail with `StoreError.closed`.
    public func close() {
        condition.withLock {
            isClosed = true
            idle.removeAll()
            condition.broadcast()
        }
    }

    /// Whether the name, or one that looks like it, is registered (compared case-insensitively).
    public func isRegistered(_ username: String) throws(StoreError) -> Bool {
        try !run("SELECT 1 FROM users WHERE username_key = $1 UNION ALL SELECT 1 FROM username_skeletons WHERE skeleton = $2 LIMIT 1",
                 [UserStore.key(username), ConfusableSkeleton.of(username)]).isEmpty
    }

    /// The stored hash for a name, or nil when it is not registered.
    public func passwordHash(of username: String) throws(StoreError) -> String? {
        try run("SELECT password_hash FROM users WHERE username_key = $1", [UserStore.key(username)]).first?.first ?? nil
    }

    /// Records a login session by the digest of its token; the token itself is never stored.
    public func saveSession(token: String, for username: String, at createdAt: Date = Date()) throws(StoreError) {
        try run("INSERT INTO sessions (token_digest, username_key, created_at) VALUES ($1, $2, $3)",
                [SHA256.hexDigest(token), UserStore.key(username), String(Self.milliseconds(createdAt))])
    }

    /// Counts a failed login for the name where every process sharing the database sees it.
    public func recordLoginFailure(of username: String, at time: Date) throws(StoreError) {
        try run("INSERT INTO login_failures (username_key, at) VALUES ($1, $2)", [UserStore.key(username), String(Self.milliseconds(time))])
    }

    /// Counts an availability check for every process, within `limit` per window of `window`
    /// seconds (fixed windows, from the epoch): one upsert on the window's row, which the database
    /// locks, so processes together never count past the limit. Old windows are pruned as it goes.
    public func spendSharedCheck(limit: Int, window: TimeInterval, at time: Date) throws(StoreError) -> TimeInterval? {
        let length = max(Int64(window * 1000), 1)
        let now = Self.milliseconds(time), start = now - now % length
        let rows = try run(
            """
            WITH pruned AS (DELETE FROM check_windows WHERE start < $1::bigint - $3::bigint)
            INSERT INTO check_windows (start, spent) VALUES ($1::bigint, 1)
            ON CONFLICT (start) DO UPDATE SET spent = check_windows.spent + 1 WHERE check_windows.spent < $2::integer
            RETURNING spent
            """,
            [String(start), String(limit), String(length)])
        return rows.isEmpty ? Double(start + length - now) / 1000 : nil
    }

    /// How many failed logins the name has had since `since`, counted by every process.
    public func sharedLoginFailures(of username: String, since: Date) throws(StoreError) -> Int? {
        let rows = try run("SELECT count(*) FROM login_failures WHERE username_key = $1 AND at > $2",
                           [UserStore.key(username), String(Self.milliseconds(since))])
        return Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
    }

    /// Adds a friend; `.conflict` when another friend has the phone number.
    /// Like a registration, an add carries an id of its own, so a retry after a lost connection
    /// finds its own row rather than a conflict.
    public func addFriend(_ friend: Friend, at time: Date = Date()) throws(StoreError) -> FriendSaveOutcome {
        let request = UUID().uuidString
        let rows = try run(
            """
            INSERT INTO friends (first_name, last_name, phone, updated_at, request_id) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (phone) DO NOTHING RETURNING id
            """,
            [friend.firstName, friend.lastName, friend.phone, String(Self.milliseconds(time)), request])
        if let id = rows.first?.first ?? nil { return .saved(id: id) }
        let mine = try run("SELECT id FROM friends WHERE phone = $1 AND request_id = $2", [friend.phone, request])
        guard let id = mine.first?.first ?? nil else { return .conflict }
        return .saved(id: id)
    }

    /// Replaces a friend's details; `.notFound` when no friend has the id, `.conflict` when
    /// another friend has the phone number.
    public func updateFriend(_ id: String, to friend: Friend, at time: Date = Date()) throws(StoreError) -> FriendSaveOutcome {
        guard Int64(id) != nil else { return .notFound }
        do throws(StoreError) {
            let rows = try run(
                "UPDATE friends SET first_name = $1, last_name = $2, phone = $3, updated_at = $4 WHERE id = $5 RETURNING id",
                [friend.firstName, friend.lastName, friend.phone, String(Self.milliseconds(time)), id])
            return rows.isEmpty ? .notFound : .saved(id: id)
        } catch {
            if case .uniqueViolation = error { return .conflict }
            throw error
        }
    }

    // MARK: Running statements

    /// Runs one statement on a pooled connection; a lost connection is retried on a new one
    /// after each of `retryDelays`, then reported as unreachable.
    @discardableResult
    func run(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        var attempt = 0
        while true {
            let connection = try checkOut()
            do throws(PostgresFailure) {
                let rows = try connection.query(sql, parameters)
                checkIn(connection)
                return rows
            } catch {
                guard case .connection = error else {
                    checkIn(connection)
                    throw storeError(error)
                }
                discardConnection()
                guard attempt < retryDelays.count else { throw storeError(error) }
                Thread.sleep(forTimeInterval: Double(retryDelays[attempt].milliseconds) / 1000)
                attempt += 1
            }
        }
    }

    /// What a failure means to the directory: the database out of reach, a unique value taken,
    /// or a statement that failed.
    func storeError(_ failure: PostgresFailure) -> StoreError {
        switch failure {
        case .connection(let reason): .databaseUnreachable(target: target, reason: reason)
        case .statement("23505", _): .uniqueViolation(target: target)
        case .statement(let state, let message): .database(target: target, message: "\(message) (SQLSTATE \(state))")
        }
    }

    /// An idle connection, or a new one while the pool has room; waits for one otherwise.
    private func checkOut() throws(StoreError) -> PostgresConnection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw .closed(path: target)
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if open < poolSize {
                open += 1
                condition.unlock()
                do throws(StoreError) {
                    return try connect()
                } catch {
                    condition.withLock {
                        open -= 1
                        condition.signal()
                    }
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        condition.withLock {
            if isClosed || !connection.isOK {
                open -= 1
            } else {
                idle.append(connection)
            }
            condition.signal()
        }
    }

    private func discardConnection() {
        condition.withLock {
            open -= 1
            condition.signal()
        }
    }

    /// A new connection with the statement timeout set; unreachable is retried with backoff.
    func connect() throws(StoreError) -> PostgresConnection {
        var attempt = 0
        while true {
            do throws(PostgresFailure) {
                let connection = try PostgresConnection(conninfo)
                try connection.query("SET statement_timeout = \(max(1, statementTimeout.milliseconds))")
                // Notices ("already exists, skipping") would go to stderr from libpq itself.
                try connection.query("SET client_min_messages = warning")
                return connection
            } catch {
                guard attempt < retryDelays.count else {
                    switch error {
                    case .connection(let reason), .statement(_, let reason):
                        throw .databaseUnreachable(target: target, reason: reason)
                    }
                }
                Thread.sleep(forTimeInterval: Double(retryDelays[attempt].milliseconds) / 1000)
                attempt += 1
            }
        }
    }

    // MARK: Helpers

    static func milliseconds(_ time: Date) -> Int64 {
        Int64(time.timeIntervalSince1970 * 1000)
    }

    /// The connection string with a 5 s `connect_timeout` unless it sets one, so that a host that
    /// does not answer is reported after seconds, not after TCP's own minutes.
    static func withConnectTimeout(_ conninfo: String) -> String {
        guard !conninfo.contains("connect_timeout") else { return conninfo }
        guard conninfo.hasPrefix("postgres"), conninfo.contains("://") else { return conninfo + " connect_timeout=5" }
        return conninfo + (conninfo.contains("?") ? "&" : "?") + "connect_timeout=5"
    }

    /// The connection string without a password, for messages: `postgresql://user:secret@host/db`
    /// shows as `postgresql://user@host/db`, and a `password=` pair is left out.
    static func redacted(_ conninfo: String) -> String {
        guard let scheme = conninfo.range(of: "://"), conninfo.hasPrefix("postgres") else {
            return conninfo.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(separator: " ")
        }
        var address = String(conninfo[scheme.upperBound...])
        var query = ""
        if let mark = address.firstIndex(of: "?") {
            query = String(address[address.index(after: mark)...])
            address = String(address[..<mark])
        }
        if let at = address.lastIndex(of: "@") {
            let user = address[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            address = String(user) + String(address[at...])
        }
        let kept = query.split(separator: "&").filter { !$0.hasPrefix("password=") }
        return String(conninfo[..<scheme.upperBound]) + address + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }
}

extension PostgresStore: AccountStore {}
