import Foundation
import Testing
import SignupBackends
import SignupCore
import SignupTestSupport

/// `unique` checks through the real binary (issue 37): four processes racing to register the same
/// e-mail addresses, each spelt in its own case, against one SQLite file or one PostgreSQL database,
/// have exactly one winner per address; every loser sees the address taken on its e-mail field.
@Suite struct UniqueRaceTests {
    /// A sign-up keyed by e-mail: a name, an address that must be unique, a password.
    static let form = """
        {"kind":"mail-signup","fields":[
          {"name":"username"},
          {"name":"email","normalization":"nfkc","remoteChecks":[{"kind":"unique",
            "validating":{"code":"email.checking","message":"Checking..."},"passed":{"code":"email.free","message":"Free"},
            "rejected":{"code":"email.taken","message":"This address is already registered"},
            "unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}]},
          {"name":"password","secret":true}],
         "submit":{"action":"registerAccount","usernameField":"username","passwordField":"password",
           "messages":{"taken":{"code":"username.taken","message":"Taken"},"refused":{"code":"signup.failed","message":"Sign-up failed"},
                       "unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}}}
        """

    static let addresses = (0..<25).map { "Person\($0)@Example.com" }

    /// One process's session: a sign-up per address, under a name of its own, the address in the
    /// process's own case; each submitted as soon as it is opened.
    static func session(process: Int) -> String {
        addresses.enumerated().flatMap { index, address in
            let spelt = process % 2 == 0 ? address.lowercased() : address.uppercased()
            let values = #"{"username":"p\#(process)u\#(index)","email":"\#(spelt)","password":"secret-\#(process)-\#(index)"}"#
            return [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"mail-signup","form":"r\#(index)","values":\#(values),"at":\#(index * 10)}}"#,
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"form.submit","params":{"form":"r\#(index)","at":\#(index * 10 + 1)}}"#]
        }.joined(separator: "\n") + "\n"
    }

    /// Runs four processes at once against `store`; returns, per address, how many won.
    static func race(store: String) throws -> [Int] {
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("mail.json", form)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var outputs: [Int: Subprocess.Output] = [:]
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { process in
            let output = try? Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--forms", forms, "--store", store],
                                             input: session(process: process))
            results.lock.withLock { results.outputs[process] = output }
        }
        var winners = [Int](repeating: 0, count: addresses.count)
        for process in 0..<4 {
            let output = try #require(results.outputs[process])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(!output.stdout.contains("secret-") && !output.stderr.contains("secret-"))
            for index in addresses.indices {
                let form = #""form":"r\#(index)""#
                let lines = output.lines.filter { $0.contains(form + ",") || $0.contains(form + "}") }
                let won = lines.contains { $0.contains(#""state":"succeeded""#) }
                // Lost at the registration (the claim), or saw the address taken by the check, so the tap was refused.
                let takenOnTheField = lines.contains { $0.contains(#""field":"email","state":"failed","code":"email.taken","params":{},"message":"This address is already registered""#) }
                let lostTheClaim = takenOnTheField && lines.contains { $0.contains(#""state":"failed","code":"signup.failed","params":{"field":"email"}"#) }
                let refusedAtTheTap = takenOnTheField && lines.contains { $0.contains(#""accepted":false,"reason":"#) }
                #expect([won, lostTheClaim, refusedAtTheTap].filter { $0 }.count == 1, "process \(process), r\(index): \(lines)")
                if won { winners[index] += 1 }
            }
        }
        return winners
    }

    @Test func fourProcessesOnOneSQLiteFileHaveOneWinnerPerAddress() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        #expect(try Self.race(store: store) == [Int](repeating: 1, count: Self.addresses.count))
        let users = try UserStore(path: store)
        #expect(try users.registeredNames().count == Self.addresses.count)
        for address in Self.addresses {
            #expect(try users.isClaimed(kind: "mail-signup", field: "email", folded: address.lowercased()))
        }
    }

    @Test(.enabled(if: PostgresServer.isInstalled, "needs Debian's postgresql"))
    func fourProcessesOnOnePostgreSQLDatabaseHaveOneWinnerPerAddress() throws {
        let server = try PostgresServer()
        #expect(try Self.race(store: server.conninfo) == [Int](repeating: 1, count: Self.addresses.count))
        #expect(try server.query("SELECT count(*) FROM users") == ["\(Self.addresses.count)"])
        #expect(try server.query("SELECT count(*) FROM field_claims WHERE kind = 'mail-signup' AND field = 'email'") == ["\(Self.addresses.count)"])
        // Each account keeps its non-secret fields; no password anywhere but as a hash.
        #expect(try server.query("SELECT count(*) FROM account_fields WHERE field = 'email'") == ["\(Self.addresses.count)"])
        #expect(try server.query("SELECT count(*) FROM account_fields WHERE field = 'password' OR value LIKE 'secret-%'") == ["0"])
    }

    @Test(.enabled(if: PostgresServer.isInstalled, "needs Debian's postgresql"))
    func aDatabaseOfSchemaVersion1IsMigratedInPlace() throws {
        let server = try PostgresServer()
        // The schema as the build before this one made it, with an account in it.
        for statement in [
            "CREATE TABLE signup_schema (version integer NOT NULL)",
            "CREATE TABLE users (id bigserial PRIMARY KEY, username text NOT NULL, username_key text NOT NULL UNIQUE, password_hash text NOT NULL, created_at bigint NOT NULL, registration_id text)",
            "CREATE TABLE sessions (token_digest text PRIMARY KEY, username_key text NOT NULL, created_at bigint NOT NULL)",
            "CREATE TABLE friends (id bigserial PRIMARY KEY, first_name text NOT NULL, last_name text NOT NULL, phone text NOT NULL UNIQUE, updated_at bigint NOT NULL, request_id text)",
            "CREATE TABLE login_failures (username_key text NOT NULL, at bigint NOT NULL)",
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('old', 'old', '$y$o', 0)",
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('paypal', 'paypal', '$y$p', 0)",
            "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('p\u{0430}ypal', 'p\u{0430}ypal', '$y$q', 0)",
            "INSERT INTO signup_schema (version) VALUES (1)",
        ] {
            _ = try server.query(statement)
        }
        #expect(try Self.race(store: server.conninfo) == [Int](repeating: 1, count: Self.addresses.count))
        #expect(try server.query("SELECT max(version) FROM signup_schema") == ["4"])
        #expect(try server.query("SELECT count(*) FROM users WHERE username = 'old'") == ["1"])
        // Both look-alikes kept; the earlier holds the skeleton, and a store opened now finds it done.
        #expect(try server.query("SELECT count(*) FROM users WHERE username IN ('paypal', 'p\u{0430}ypal')") == ["2"])
        #expect(try server.query("SELECT u.username FROM username_skeletons s JOIN users u ON u.id = s.account WHERE s.skeleton = 'paypal'") == ["paypal"])
        let store = try PostgresStore(conninfo: server.conninfo)
        #expect(store.lookAlikesFoundByMigration == [])
        #expect(try store.isRegistered("PAYPA1"))
    }
}
