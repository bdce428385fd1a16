import Foundation
import SignupCore

/// The database's schema: created by the first process to start, migrated in place by the first
/// process of a newer build, under an advisory lock so that processes starting together take turns.
extension PostgresStore {
    /// Creates or migrates the schema under an advisory lock, so processes starting together
    /// take turns; the first does the work and the others find it done. One connection of its
    /// own: the lock and the transaction belong to a session.
    func migrate() throws(StoreError) {
        let connection = try connect()
        func run(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
            do throws(PostgresFailure) {
                return try connection.query(sql, parameters)
            } catch {
                throw storeError(error)
            }
        }
        // Any constant: it names this schema's lock among the database's users.
        _ = try run("SELECT pg_advisory_lock(7301205442)")
        defer { _ = try? run("SELECT pg_advisory_unlock(7301205442)") }
        _ = try run("CREATE TABLE IF NOT EXISTS signup_schema (version integer NOT NULL)")
        let found = Int(try run("SELECT coalesce(max(version), 0) FROM signup_schema").first?.first.flatMap { $0 } ?? "0") ?? 0
        if found > Self.schemaVersion {
            throw .database(target: target, message: "schema version \(found) is newer than this signup-rpc understands; upgrade signup-rpc")
        }
        if found < 1 { try createFirstSchema { sql throws(StoreError) in try run(sql) } }
        if found < 2 { try Self.addAccountFields { sql throws(StoreError) in try run(sql) } }
        if found < 3 { try Self.addUsernameSkeletons(run) }
        if found < 4 { lookAlikesFoundByMigration = try Self.recomputeUsernameSkeletons(run) }
    }

    typealias Statement = (String, [String?]) throws(StoreError) -> [[String?]]

    /// Version 4: skeletons compared without regard to case (`ConfusableSkeleton`), given again to
    /// every account in the order they registered (look-alikes among them are kept and returned).
    static func recomputeUsernameSkeletons(_ run: Statement) throws(StoreError) -> [LookAlikeUsernames.Pair] {
        try migration(to: 4, run) { () throws(StoreError) in
            _ = try run("DELETE FROM username_skeletons", [])
            let accounts = try run("SELECT id, username FROM users ORDER BY id", []).compactMap { row -> (id: Int64, username: String)? in
                guard row.count == 2, let id = row[0].flatMap({ Int64($0) }), let username = row[1] else { return nil }
                return (id, username)
            }
            let sorted = LookAlikeUsernames(accounts: accounts)
            for holder in sorted.holders {
                _ = try run("INSERT INTO username_skeletons (skeleton, account) VALUES ($1, $2)", [holder.skeleton, String(holder.account)])
            }
            return sorted.pairs
        }
    }

    /// Version 3: the table of one account per confusable skeleton (filled by version 4), and the
    /// shared count of availability checks.
    static func addUsernameSkeletons(_ run: Statement) throws(StoreError) {
        try migration(to: 3, run) { () throws(StoreError) in
            _ = try run("CREATE TABLE username_skeletons (skeleton text PRIMARY KEY, account bigint NOT NULL REFERENCES users (id))", [])
            // And the availability checks of each minute, which every process counts against one budget.
            _ = try run("CREATE TABLE check_windows (start bigint PRIMARY KEY, spent integer NOT NULL)", [])
        }
    }

    /// Runs `body` and records `version`, in one transaction: committed whole, or rolled back.
    private static func migration<Value>(
        to version: Int, _ run: Statement, _ body: () throws(StoreError) -> Value
    ) throws(StoreError) -> Value {
        _ = try run("BEGIN", [])
        do throws(StoreError) {
            let value = try body()
            _ = try run("INSERT INTO signup_schema (version) VALUES ($1)", [String(version)])
            _ = try run("COMMIT", [])
            return value
        } catch {
            _ = try? run("ROLLBACK", [])
            throw error
        }
    }

    /// Version 1: users, sessions, friends and failed logins.
    private func createFirstSchema(_ run: (String) throws(StoreError) -> [[String?]]) throws(StoreError) {
        _ = try run("BEGIN")
        do throws(StoreError) {
            _ = try run("""
                CREATE TABLE users (
                    id bigserial PRIMARY KEY,
                    username text NOT NULL,
                    username_key text NOT NULL UNIQUE,
                    password_hash text NOT NULL,
                    created_at bigint NOT NULL,
                    registration_id text
                )
                """)
            _ = try run("""
                CREATE TABLE sessions (
                    token_digest text PRIMARY KEY,
                    username_key text NOT NULL,
                    created_at bigint NOT NULL
                )
                """)
            _ = try run("""
                CREATE TABLE friends (
                    id bigserial PRIMARY KEY,
                    first_name text NOT NULL,
                    last_name text NOT NULL,
                    phone text NOT NULL UNIQUE,
                    updated_at bigint NOT NULL,
                    request_id text
                )
                """)
            _ = try run("CREATE TABLE login_failures (username_key text NOT NULL, at bigint NOT NULL)")
            _ = try run("CREATE INDEX login_failures_by_name ON login_failures (username_key, at)")
            _ = try run("INSERT INTO signup_schema (version) VALUES (1)")
            _ = try run("COMMIT")
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    /// Version 2: accounts' fields and unique claims, added in place to a database of version 1.
    static func addAccountFields(_ run: (String) throws(StoreError) -> [[String?]]) throws(StoreError) {
        _ = try run("BEGIN")
        do throws(StoreError) {
            _ = try run("""
                CREATE TABLE account_fields (
                    account bigint NOT NULL REFERENCES users (id),
                    kind text NOT NULL,
                    field text NOT NULL,
                    value text NOT NULL,
                    PRIMARY KEY (account, field)
                )
                """)
            _ = try run("""
                CREATE TABLE field_claims (
                    kind text NOT NULL,
                    field text NOT NULL,
                    folded text NOT NULL,
                    account bigint NOT NULL REFERENCES users (id),
                    PRIMARY KEY (kind, field, folded)
                )
                """)
            _ = try run("INSERT INTO signup_schema (version) VALUES (2)")
            _ = try run("COMMIT")
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }
}
