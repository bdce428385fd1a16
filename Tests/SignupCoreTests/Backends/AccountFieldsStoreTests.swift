import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport

/// The SQLite store keeps each account's fields and the values its unique fields claim (issue 37),
/// and a store made by an earlier build is migrated in place.
@Suite struct AccountFieldsStoreTests {
    static func fields(_ email: String, kind: String = "mail-signup") -> AccountFields {
        AccountFields(kind: kind, values: ["email": email, "city": "Oslo"], claims: ["email": AccountFields.fold(email)])
    }

    @Test func aClaimedValueIsTakenForItsKindAndFieldAndNothingOfALosingRegistrationIsKept() throws {
        let folder = try TemporaryDirectory()
        let store = try UserStore(path: folder.path("users.db"))
        #expect(try store.register("ann", passwordHash: "$y$a", fields: Self.fields("Ann@Example.com")) == .registered)
        #expect(try store.isClaimed(kind: "mail-signup", field: "email", folded: "ann@example.com"))
        #expect(try !store.isClaimed(kind: "other-kind", field: "email", folded: "ann@example.com"))
        #expect(try store.fields(of: "ann") == ["email": "Ann@Example.com", "city": "Oslo"])
        // The same address in another case loses, and leaves no account behind; another kind may use it.
        #expect(try store.register("bea", passwordHash: "$y$b", fields: Self.fields("ANN@example.com")) == .fieldTaken("email"))
        #expect(try !store.isRegistered("bea"))
        #expect(try store.register("bea", passwordHash: "$y$b", fields: Self.fields("ann@example.com", kind: "other-kind")) == .registered)
        // A taken name is reported before any claim, and claims nothing.
        #expect(try store.register("ANN", passwordHash: "$y$c", fields: Self.fields("new@example.com")) == .usernameTaken)
        #expect(try !store.isClaimed(kind: "mail-signup", field: "email", folded: "new@example.com"))
    }

    @Test func twoStoresOnOneFileRacingForOneAddressHaveOneWinner() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        let first = try UserStore(path: path), second = try UserStore(path: path)
        let results = [
            try first.register("ann", passwordHash: "$y$a", fields: Self.fields("x@example.com")),
            try second.register("bea", passwordHash: "$y$b", fields: Self.fields("X@example.com")),
        ]
        #expect(results == [.registered, .fieldTaken("email")])
        #expect(try second.registeredNames() == ["ann"])
    }

    @Test func aStoreOfSchemaVersion3IsMigratedInPlaceAndKeepsItsAccountsLookAlikesIncluded() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        // The schema as the build before this one wrote it.
        do {
            let connection = try SQLiteConnection(path: path, busyTimeout: .seconds(5))
            for statement in [
                "CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL, username_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL)",
                "CREATE TABLE sessions (token_digest TEXT PRIMARY KEY, username_key TEXT NOT NULL, created_at INTEGER NOT NULL)",
                "CREATE TABLE friends (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, phone TEXT NOT NULL UNIQUE, updated_at INTEGER NOT NULL)",
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('old', 'old', '$y$o', 0)",
                // Two names that look alike, both registered before skeletons were kept.
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('paypal', 'paypal', '$y$p', 0)",
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('p\u{0430}ypal', 'p\u{0430}ypal', '$y$q', 0)",
                "PRAGMA user_version = 3",
            ] {
                try connection.execute(statement)
            }
            connection.close()
        }
        let store = try UserStore(path: path)
        // Both look-alikes are kept and reported; no third one can register.
        #expect(try store.registeredNames() == ["old", "paypal", "p\u{0430}ypal"])
        #expect(store.lookAlikesFoundByMigration == [LookAlikeUsernames.Pair(kept: "paypal", alike: "p\u{0430}ypal")])
        #expect(try store.register("PAYPA1", passwordHash: "$y$r", fields: AccountFields(kind: "signup")) == .usernameTaken)
        #expect(try store.fields(of: "old") == [:])
        #expect(try store.register("new", passwordHash: "$y$n", fields: Self.fields("n@example.com")) == .registered)
        #expect(try store.isClaimed(kind: "mail-signup", field: "email", folded: "n@example.com"))
        let version = try store.connection.query("PRAGMA user_version")
        #expect(version.first?.first == .integer(Int64(UserStore.schemaVersion)))
        // Opened again, the store is migrated already and reports nothing.
        #expect(try UserStore(path: path).lookAlikesFoundByMigration == [])
        #expect(try store.integrityCheck() == "ok")
    }

    /// Issue 54: a store of version 5 kept skeletons of lower-cased names, under which `GOOGLE`
    /// and `G00GLE` differ; version 6 computes every account's skeleton again, keeps the first of
    /// each pair and reports the other, and refuses a new look-alike.
    @Test func aStoreOfSchemaVersion5IsGivenCaseBlindSkeletons() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        do {
            let store = try UserStore(path: path)
            #expect(try store.register("GOOGLE", passwordHash: "$y$g", fields: AccountFields(kind: "signup")) == .registered)
            store.connection.close()
        }
        do {
            // As version 5 left it: G00GLE registered beside GOOGLE under the old skeleton.
            let connection = try SQLiteConnection(path: path, busyTimeout: .seconds(5))
            for statement in [
                "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('G00GLE', 'g00gle', '$y$h', 0)",
                "INSERT INTO username_skeletons (skeleton, account) VALUES ('gOOgle', 2)",
                "PRAGMA user_version = 5",
            ] {
                try connection.execute(statement)
            }
            connection.close()
        }
        let store = try UserStore(path: path)
        #expect(store.lookAlikesFoundByMigration == [LookAlikeUsernames.Pair(kept: "GOOGLE", alike: "G00GLE")])
        #expect(try store.register("googIe", passwordHash: "$y$i", fields: AccountFields(kind: "signup")) == .usernameTaken)
        #expect(try store.register("IIama", passwordHash: "$y$l", fields: AccountFields(kind: "signup")) == .registered)
        #expect(try store.register("llama", passwordHash: "$y$m", fields: AccountFields(kind: "signup")) == .usernameTaken)
        #expect(try UserStore(path: path).lookAlikesFoundByMigration == [])
    }
}
