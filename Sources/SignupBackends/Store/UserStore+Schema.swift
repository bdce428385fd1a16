import Foundation
import SignupCore

/// The file's schema: created by the first process to open it, migrated in place by the first
/// process of a newer build, in one `BEGIN IMMEDIATE` transaction so that processes opening it
/// together take turns.
extension UserStore {
    func migrate() throws(StoreError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            let rows = try connection.query("PRAGMA user_version")
            guard case .integer(let found)? = rows.first?.first else {
                throw .sqlite(path: path, code: 0, message: "PRAGMA user_version returned nothing")
            }
            let version = Int(found)
            if version > Self.schemaVersion { throw .newerSchema(path: path, version: version) }
            if version < 1 {
                try connection.execute("""
                    CREATE TABLE users (
                        id INTEGER PRIMARY KEY,
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    )
                    """)
            }
            if version < 2 {
                // Version 2: login sessions, kept only as SHA-256 digests of their tokens.
                try connection.execute("""
                    CREATE TABLE sessions (
                        token_digest TEXT PRIMARY KEY,
                        username_key TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    )
                    """)
            }
            if version < 3 {
                // Version 3: the friend list, one friend per phone number.
                try connection.execute("""
                    CREATE TABLE friends (
                        id INTEGER PRIMARY KEY,
                        first_name TEXT NOT NULL,
                        last_name TEXT NOT NULL,
                        phone TEXT NOT NULL UNIQUE,
                        updated_at INTEGER NOT NULL
                    )
                    """)
            }
            if version < 4 {
                // Version 4: each account's non-secret fields, and the values its unique fields
                // claimed: one account per value within a form kind's field.
                try connection.execute("""
                    CREATE TABLE account_fields (
                        account INTEGER NOT NULL REFERENCES users (id),
                        kind TEXT NOT NULL,
                        field TEXT NOT NULL,
                        value TEXT NOT NULL,
                        PRIMARY KEY (account, field)
                    )
                    """)
                try connection.execute("""
                    CREATE TABLE field_claims (
                        kind TEXT NOT NULL,
                        field TEXT NOT NULL,
                        folded TEXT NOT NULL,
                        account INTEGER NOT NULL REFERENCES users (id),
                        PRIMARY KEY (kind, field, folded)
                    )
                    """)
            }
            if version < 5 {
                // Version 5: one account per confusable skeleton of its name.
                try connection.execute("""
                    CREATE TABLE username_skeletons (
                        skeleton TEXT PRIMARY KEY,
                        account INTEGER NOT NULL REFERENCES users (id)
                    )
                    """)
                try giveSkeletons()
            } else if version < 6 {
                // Version 6: skeletons compared without regard to case (`ConfusableSkeleton`),
                // computed again for every account.
                try connection.execute("DELETE FROM username_skeletons")
                try giveSkeletons()
            }
            if version < Self.schemaVersion {
                try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Inside the migration: a skeleton for each account registered before version 6.
    private func giveSkeletons() throws(StoreError) {
        var accounts: [(id: Int64, username: String)] = []
        for row in try connection.query("SELECT id, username FROM users ORDER BY id") {
            if row.count == 2, case .integer(let id) = row[0], case .text(let username) = row[1] { accounts.append((id, username)) }
        }
        let sorted = LookAlikeUsernames(accounts: accounts)
        for holder in sorted.holders {
            _ = try connection.query("INSERT INTO username_skeletons (skeleton, account) VALUES (?, ?)",
                                     [.text(holder.skeleton), .integer(holder.account)])
        }
        lookAlikesFoundByMigration = sorted.pairs
    }
}
