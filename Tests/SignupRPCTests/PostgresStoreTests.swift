import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// `--store postgresql://…` against a real PostgreSQL server each test starts (Debian's
/// `postgresql`; `.ci/run` installs it). Processes share the database as processes on several
/// machines would.
@Suite(.enabled(if: PostgresServer.isInstalled, "needs Debian's postgresql"))
struct PostgresStoreTests {
    private static func signup(_ form: String, _ username: String, _ password: String, id: Int, at time: Int) -> [String] {
        [#"{"jsonrpc":"2.0","method":"form.open","params":{"form":"\#(form)","values":{"username":"\#(username)","password":"\#(password)","repeatedPassword":"\#(password)"},"at":\#(time)}}"#,
         #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)","at":\#(time + 1)}}"#]
    }

    /// Four processes' inputs: `own` sign-ups each of names only that process uses, then one
    /// sign-up of every contested name, spelled as `spelling` says for the process, with request
    /// ids from `raceIDs` on.
    private static func racingSignups(own: Int, contested: [String], raceIDs: Int,
                                      spelling: (_ process: Int, _ name: String) -> String) -> [[String]] {
        (0..<4).map { process in
            (0..<own).flatMap { signup("own\($0)", "p\(process)user\($0)", "secret-\(process)-\($0)", id: $0, at: $0 * 10) }
                + contested.enumerated().flatMap { index, name in
                    signup("race\(index)", spelling(process, name), "secret-\(process)-race\(index)", id: raceIDs + index,
                           at: (raceIDs + index) * 10)
                }
        }
    }

    private static func login(_ form: String, _ username: String, _ password: String, id: Int, at time: Int) -> [String] {
        [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"login","form":"\#(form)","values":{"username":"\#(username)","password":"\#(password)"},"at":\#(time)}}"#,
         #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)","at":\#(time + 1)}}"#]
    }

    /// A submission's end, as "state" or "state:code", with its form; nil for any other line
    /// (a submission still running included).
    fileprivate static func ending(_ line: String) -> (form: String, outcome: String)? {
        guard line.contains("form.submissionChanged"), !line.contains(#""submitting""#), !line.contains("loggingIn") else { return nil }
        func member(_ name: String) -> String? {
            line.components(separatedBy: #""\#(name)":""#).dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
        }
        guard let form = member("form"), let state = member("state") else { return nil }
        return (form, state + (member("code").map { ":" + $0 } ?? ""))
    }

    private static func outcomes(_ output: Subprocess.Output) -> [String: String] {
        Dictionary(output.lines.compactMap(ending), uniquingKeysWith: { $1 })
    }

    private static func run(_ server: PostgresServer, _ lines: [String]) throws -> Subprocess.Output {
        try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", server.conninfo],
                           input: lines.joined(separator: "\n") + "\n")
    }

    @Test func processesRacingForNamesInDifferentCasesHaveOneWinnerEachAndStoreNoPassword() throws {
        let server = try PostgresServer()
        let contested = (0..<20).map { "Rival\($0)" }
        // Four processes: 25 names of their own each, and the 20 contested names in their own case.
        let inputs = Self.racingSignups(own: 25, contested: contested, raceIDs: 100) { process, name in
            process % 2 == 0 ? name.lowercased() : name.uppercased()
        }
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var outputs: [Int: Subprocess.Output] = [:]
        }
        let results = Results()
        let conninfo = server.conninfo
        DispatchQueue.concurrentPerform(iterations: 4) { process in
            let output = try? Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", conninfo],
                                             input: inputs[process].joined(separator: "\n") + "\n")
            results.lock.withLock { results.outputs[process] = output }
        }
        #expect(results.outputs.count == 4)
        var winners = [Int](repeating: 0, count: contested.count)
        for process in 0..<4 {
            let output = try #require(results.outputs[process])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let outcomes = Self.outcomes(output)
            for own in 0..<25 { #expect(outcomes["own\(own)"] == "succeeded") }
            for index in contested.indices {
                // Won; lost the race at the insert; or saw the name taken already, so the tap was refused.
                let outcome = outcomes["race\(index)"]
                let refusedAtTheTap = output.stdout.contains(#"{"jsonrpc":"2.0","id":\#(100 + index),"result":{"form":"race\#(index)","accepted":false,"reason":"invalid"}}"#)
                #expect(outcome == "succeeded" || outcome == "failed:username.taken" || (outcome == nil && refusedAtTheTap),
                        "race\(index): \(outcome ?? "none")")
                if outcome == "succeeded" { winners[index] += 1 }
            }
        }
        #expect(winners == [Int](repeating: 1, count: contested.count))
        #expect(try server.query("SELECT count(*) FROM users") == ["120"])
        #expect(try server.query("SELECT count(*) FROM (SELECT username_key FROM users GROUP BY username_key HAVING count(*) > 1) AS twice") == ["0"])
        // Only yescrypt hashes: no password in any table.
        let stored = try server.query("SELECT username || ' ' || password_hash FROM users")
        #expect(stored.allSatisfy { !$0.contains("secret-") && $0.contains(" $y$") })
        // Nor in the database server's log, nor in what the processes wrote.
        let serverLog = (try? String(contentsOfFile: "\(server.folder)/log", encoding: .utf8)) ?? ""
        #expect(!serverLog.isEmpty && !serverLog.contains("secret-"))
        #expect(results.outputs.values.allSatisfy { !$0.stdout.contains("secret-") && !$0.stderr.contains("secret-") })
    }

    @Test func killingAProcessMidBurstLosesNoAcknowledgedRegistrationAndARestartCarriesOn() throws {
        let server = try PostgresServer()
        var acknowledged: [String] = []
        for round in 0..<2 {
            let child = try InteractiveProcess(["--clock", "virtual", "--debounce-ms", "0", "--store", server.conninfo])
            let watchdog = DispatchWorkItem { child.killHard() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
            defer { watchdog.cancel() }
            let first = round * 100
            // A burst of 60 sign-ups, SIGKILLed once ten more have been acknowledged.
            child.send((first..<(first + 60)).flatMap { Self.signup("f\($0)", "name\($0)", "pw-\($0)", id: $0, at: ($0 - first) * 10) })
            for _ in 0..<10 {
                acknowledged += child.readLines { $0.contains(#""state":"succeeded""#) }.compactMap(Self.acknowledgedName)
            }
            child.killHard()
            #expect(child.wait() == 9)
        }
        #expect(acknowledged.count >= 20)
        let registered = try server.query("SELECT username FROM users")
        for name in acknowledged { #expect(registered.contains(name), "\(name) was acknowledged but is not in the database") }
        #expect(Set(registered).count == registered.count)
        // A new process finds every committed name taken, acknowledged or not.
        let again = Self.outcomes(try Self.run(server, Self.signup("g", registered[0].uppercased(), "pw", id: 1, at: 0)))
        #expect(again["g"] == nil)
    }

    @Test func aDatabaseRestartedWhileRegistrationsAreInFlightLeavesEachEitherStoredAndSucceededOrNeither() throws {
        let server = try PostgresServer()
        let child = try InteractiveProcess(["--debounce-ms", "0", "--store", server.conninfo])
        let watchdog = DispatchWorkItem { child.killHard() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        let names = (0..<30).map { "inflight\($0)" }
        // Real time: open every form and wait until every name has been checked...
        child.send(names.map { name in
            #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"\#(name)","values":{"username":"\#(name)","password":"correct horse","repeatedPassword":"correct horse"}}}"#
        })
        var checked = Set<String>()
        while checked.count < names.count, let line = child.readLine() {
            if line.contains(#""code":"username.available""#), let form = line.components(separatedBy: #""form":""#).dropFirst().first {
                checked.insert(String(form.prefix { $0 != "\"" }))
            }
        }
        // ...then tap them all and restart the database while the registrations run.
        child.send(names.map { #"{"jsonrpc":"2.0","method":"form.submit","params":{"form":"\#($0)"}}"# })
        server.stop()
        try server.start()
        var outcomes: [String: String] = [:]
        while outcomes.count < names.count, let line = child.readLine() {
            if let ending = Self.ending(line) { outcomes[ending.form] = ending.outcome }
        }
        #expect(outcomes.count == names.count)
        for (form, outcome) in outcomes {
            #expect(outcome == "succeeded" || outcome == "failed:backend.unavailable", "\(form): \(outcome)")
        }
        // Never both: what was told succeeded is stored, and nothing else is.
        let stored = Set(try server.query("SELECT username FROM users"))
        #expect(stored == Set(outcomes.filter { $0.value == "succeeded" }.keys))
        child.closeInput()
        #expect(child.wait() == 0)
    }

    /// The issue's durability run: four processes with 100 names each and 20 names all four race
    /// for (each in its own letter case); two of them SIGKILLed mid-run and started again on the
    /// same input. Every acknowledged registration is stored, no name twice, and no contested name
    /// was told `succeeded` to two processes.
    @Test func fourProcessesTwoKilledAndRestartedLoseNothingAcknowledgedAndNeverRegisterANameTwice() throws {
        let server = try PostgresServer()
        let contested = (0..<20).map { "Contested\($0)" }
        let inputs = Self.racingSignups(own: 100, contested: contested, raceIDs: 1000) { process, name in
            [name.lowercased(), name.uppercased(), name, name.capitalized][process]
        }
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var acknowledged: [String] = []
            var toldWon: [String: Int] = [:]
            var statuses: [Int32] = []
            func record(_ lines: [String], statusOf status: Int32?) {
                lock.withLock {
                    for line in lines {
                        guard let name = PostgresStoreTests.acknowledgedName(line) else { continue }
                        acknowledged.append(name)
                        if line.contains(#""form":"race"#) { toldWon[name.lowercased(), default: 0] += 1 }
                    }
                    if let status { statuses.append(status) }
                }
            }
        }
        let log = Log()
        let conninfo = server.conninfo
        DispatchQueue.concurrentPerform(iterations: 4) { process in
            let arguments = ["--clock", "virtual", "--debounce-ms", "0", "--store", conninfo]
            if process >= 2 {
                let output = try? Subprocess.run(arguments, input: inputs[process].joined(separator: "\n") + "\n")
                log.record(output?.lines ?? [], statusOf: output?.status ?? -1)
                return
            }
            // Killed once it has acknowledged some, then started again on the same input.
            guard let child = try? InteractiveProcess(arguments) else { return }
            child.send(inputs[process])
            var lines: [String] = []
            for _ in 0..<(20 + process * 15) {
                lines += child.readLines { $0.contains(#""state":"succeeded""#) }
            }
            child.killHard()
            log.record(lines, statusOf: nil)
            _ = child.wait()
            let again = try? Subprocess.run(arguments, input: inputs[process].joined(separator: "\n") + "\n")
            log.record(again?.lines ?? [], statusOf: again?.status ?? -1)
        }
        #expect(log.statuses == [0, 0, 0, 0])
        let stored = try server.query("SELECT username FROM users")
        for name in log.acknowledged { #expect(stored.contains(name), "\(name) was acknowledged but is not stored") }
        #expect(Set(stored.map { $0.lowercased() }).count == stored.count, "a name is stored twice")
        #expect(stored.count == 420)
        // The kills fall among the processes' own names, so every race runs to its end: each
        // contested name has exactly one winner, who was told so.
        #expect(log.toldWon.count == contested.count && log.toldWon.values.allSatisfy { $0 == 1 }, "\(log.toldWon)")
        #expect(try server.query("SELECT count(*) FROM users WHERE password_hash NOT LIKE '$y$%'") == ["0"])
    }

    fileprivate static func acknowledgedName(_ line: String) -> String? {
        guard line.contains(#""state":"succeeded""#), let range = line.range(of: #""account":{"username":""#) else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func theLoginRateLimitHoldsAcrossProcesses() throws {
        let server = try PostgresServer()
        #expect(Self.outcomes(try Self.run(server, Self.signup("f", "alice", "correct horse", id: 1, at: 0))) == ["f": "succeeded"])
        // Five wrong passwords in one process...
        let failures = (0..<5).flatMap { Self.login("l\($0)", "Alice", "wrong \($0)", id: $0, at: $0 * 10) }
        let first = Self.outcomes(try Self.run(server, failures))
        #expect(first.values.sorted() == [String](repeating: "loginFailed:login.wrongCredentials", count: 5))
        // ...and another process, which has counted nothing itself, refuses even the right one.
        let second = Self.outcomes(try Self.run(server, Self.login("l", "ALICE", "correct horse", id: 1, at: 0)))
        #expect(second == ["l": "loginFailed:login.rateLimited"])
        #expect(try server.query("SELECT count(*) FROM login_failures") == ["5"])
    }

    @Test func friendsAreAddedUpdatedAndClashingPhoneNumbersAreConflicts() throws {
        let server = try PostgresServer()
        func friend(_ form: String, _ first: String, _ phone: String, record: String? = nil, id: Int, at time: Int) -> [String] {
            let opening = record.map { #""record":{"id":"\#($0)","firstName":"\#(first)","lastName":"L","phone":"\#(phone)"}"# }
                ?? #""values":{"firstName":"\#(first)","lastName":"L","phone":"\#(phone)"}"#
            return [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"friend","form":"\#(form)",\#(opening),"at":\#(time)}}"#,
                    #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)","at":\#(time + 1)}}"#]
        }
        let output = try Self.run(server, friend("a", "Ada", "5550001", id: 1, at: 0) + friend("b", "Bea", "5550001", id: 2, at: 10)
                                  + friend("c", "Cy", "5550003", record: "1", id: 3, at: 20) + friend("d", "Di", "5550004", record: "99", id: 4, at: 30))
        #expect(Self.outcomes(output) == ["a": "succeeded", "b": "failed:friend.conflict", "c": "succeeded", "d": "failed:friend.notFound"])
        #expect(try server.query("SELECT id || ' ' || first_name || ' ' || phone FROM friends") == ["1 Cy 5550003"])
    }

    @Test func anUnreachableDatabaseAtStartUpExits69AndNeverShowsItsPassword() throws {
        let output = try Subprocess.run(["--store", "postgresql://signup:hunter2secret@127.0.0.1:1/users"], input: "")
        #expect(output.status == 69)
        #expect(output.stderr.hasPrefix("signup-rpc: cannot reach the PostgreSQL user directory postgresql://signup@127.0.0.1:1/users: "))
        #expect(!output.stderr.contains("hunter2secret"))
        #expect(output.stdout.isEmpty)
    }

    @Test func aDatabaseStoppedMidRunFailsRegistrationsAsUnavailableAndTheProcessRecovers() throws {
        let server = try PostgresServer()
        let child = try InteractiveProcess(["--clock", "virtual", "--debounce-ms", "0", "--store", server.conninfo])
        let watchdog = DispatchWorkItem { child.killHard() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        /// Opens a sign-up and waits until its name has been checked.
        func open(_ form: String, _ name: String, at time: Int) -> [String] {
            // Virtual time: the store's work runs as the clock moves.
            child.send([Self.signup(form, name, "secret-\(name)", id: 0, at: time)[0],
                        #"{"jsonrpc":"2.0","method":"clock.advance","params":{"to":\#(time + 1)}}"#])
            return child.readLines { $0.contains(#""form":"\#(form)""#) && $0.contains(#""field":"username""#) && !$0.contains("validating") }
        }
        /// Taps submit and waits for the outcome.
        func submit(_ form: String, id: Int, at time: Int) -> String? {
            child.send([Self.signup(form, "", "", id: id, at: time)[1],
                        #"{"jsonrpc":"2.0","method":"clock.advance","params":{"to":\#(time + 2)}}"#])
            let lines = child.readLines { Self.ending($0)?.form == form }
            return lines.last.flatMap(Self.ending)?.outcome
        }
        #expect(open("before", "before", at: 0).last?.contains(#""state":"ok""#) == true)
        #expect(submit("before", id: 1, at: 10) == "succeeded")
        #expect(open("during", "during", at: 100).last?.contains(#""state":"ok""#) == true)
        server.stop()
        // The database went away between the check and the tap: the documented server error.
        #expect(submit("during", id: 2, at: 110) == "failed:backend.unavailable")
        try server.start()
        #expect(open("after", "after", at: 200).last?.contains(#""state":"ok""#) == true)
        #expect(submit("after", id: 3, at: 210) == "succeeded")
        child.closeInput()
        #expect(child.wait() == 0)
        #expect(try server.query("SELECT username FROM users ORDER BY id") == ["before", "after"])
    }
}

/// Which `--store` values name PostgreSQL, and what a connection string shows of itself.
@Suite struct StoreChoiceTests {
    @Test(arguments: [
        ("users.db", false), ("/var/lib/signup/users.sqlite", false), ("my store=old.db", true),
        ("postgresql://signup@db.internal/users", true), ("postgres://localhost/users", true),
        ("host=/run/postgresql dbname=users", true), ("dbname=users", true),
    ])
    func aConnectionStringIsPostgresAndAnythingElseAFile(store: String, isPostgres: Bool) {
        #expect(Options.isPostgres(store) == isPostgres)
    }

    @Test(arguments: [
        ("postgresql://signup:hunter2@db.internal:5432/users", "postgresql://signup@db.internal:5432/users"),
        ("postgresql://signup@db.internal/users?password=hunter2&sslmode=require", "postgresql://signup@db.internal/users?sslmode=require"),
        ("host=db user=signup password=hunter2 dbname=users", "host=db user=signup dbname=users"),
        ("postgresql:///users?host=/run/postgresql", "postgresql:///users?host=/run/postgresql"),
    ])
    func messagesNameTheDatabaseWithoutItsPassword(conninfo: String, shown: String) {
        #expect(PostgresStore.redacted(conninfo) == shown)
    }

    @Test func aConnectionGivesUpOnAHostThatDoesNotAnswerWithinSeconds() {
        #expect(PostgresStore.withConnectTimeout("host=db dbname=users") == "host=db dbname=users connect_timeout=5")
        #expect(PostgresStore.withConnectTimeout("postgresql://db/users") == "postgresql://db/users?connect_timeout=5")
        #expect(PostgresStore.withConnectTimeout("postgresql://db/users?sslmode=require") == "postgresql://db/users?sslmode=require&connect_timeout=5")
        #expect(PostgresStore.withConnectTimeout("host=db connect_timeout=2") == "host=db connect_timeout=2")
    }
}
