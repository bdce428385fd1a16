import Foundation
import Testing
import SignupCore
import SignupTestSupport

/// Budgets of availability checks (issue 38 §5), through the real binary: past a session's budget
/// the field fails with `check.budgetExceeded` and `retryAfter`, a recording replays it, and on
/// PostgreSQL the store's budget holds for every process together.
@Suite struct CheckBudgetTests {
    static func edits(_ names: [(String, Int)], kind: String = "signup") -> String {
        ([#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"\#(kind)","form":"f","at":0}}"#] + names.map { name, at in
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"username","value":"\#(name)","at":\#(at)}}"#
        }).joined(separator: "\n") + "\n"
    }

    /// `field state code params` of every username event after the opening one.
    static func shown(_ output: Subprocess.Output) -> [String] {
        output.lines.filter { $0.contains(#""field":"username""#) && !$0.contains(#""at":0}"#) }.compactMap { line in
            guard let state = line.range(of: #""state":""#), let end = line.range(of: #","message""#) else { return nil }
            return String(line[state.lowerBound..<end.lowerBound])
        }
    }

    @Test func theFourthCheckOfAMinuteIsRefusedUntilTheFirstAgesOut() throws {
        let input = Self.edits([("ann1", 1000), ("ann2", 2000), ("ann3", 3000), ("ann4", 4000), ("ann5", 62000)])
        let folder = try TemporaryDirectory()
        let recording = folder.path("budget.jsonl")
        let output = try Subprocess.run(
            ["--clock", "virtual", "--debounce-ms", "0", "--session-checks-per-minute", "3", "--record", recording], input: input)
        #expect(output.status == 0)
        let checked = #""state":"validating","code":"username.checking","params":{}"#
        let available = #""state":"ok","code":"username.available","params":{}"#
        #expect(Self.shown(output) == [
            checked, available, checked, available, checked, available,
            // One minute after the first check, at 61 000 ms, a check is allowed again.
            checked, #""state":"failed","code":"check.budgetExceeded","params":{"retryAfter":57}"#,
            checked, available,
        ])
        #expect(output.stdout.contains(#""message":"Too many checks; try again in 57 s""#))
        // The recording keeps the budget, so its replay refuses the same check.
        let header = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains(#""checkBudget":{"session":3,"store":6000}"#))
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    @Test func theRefusalSpeaksTheSessionsLocale() throws {
        let input = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"locale":"zh-Hans"}}"# + "\n"
            + Self.edits([("ann1", 1000), ("ann2", 2000)])
        let output = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--session-checks-per-minute", "1"], input: input)
        #expect(output.stdout.contains(#""code":"check.budgetExceeded","params":{"retryAfter":59},"message":"检查次数过多；请 59 秒后再试""#))
    }

    @Test func zeroMeansUnbounded() throws {
        let names = (1...200).map { ("n\($0)", $0 * 1000) }
        let output = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--session-checks-per-minute", "0",
                                         "--store-checks-per-minute", "0"], input: Self.edits(names))
        #expect(!output.stdout.contains("check.budgetExceeded"))
        #expect(Self.shown(output).filter { $0.contains("username.available") }.count == 200)
    }

    /// The store's budget is counted in the database for every process, and refuses only clients
    /// that have asked more than the quiet share (12 a minute): a harvester that spent it is slowed,
    /// and a person in another process is still answered (issue 54).
    @Test(.enabled(if: PostgresServer.isInstalled, "needs Debian's postgresql"))
    func twoProcessesOnOnePostgreSQLDatabaseShareTheStoresBudgetAndItDeniesOnlyTheHarvester() throws {
        let server = try PostgresServer()
        // The store counts fixed minutes of the wall clock: start well inside one.
        while Int(Date().timeIntervalSince1970) % 60 > 45 { Thread.sleep(forTimeInterval: 0.5) }
        func run(_ prefix: String, _ count: Int) throws -> [String] {
            let names = (0..<count).map { ("\(prefix)n\($0)", ($0 + 1) * 1000) }
            let output = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", server.conninfo,
                                             "--store-checks-per-minute", "5"], input: Self.edits(names))
            #expect(output.status == 0, "\(output.stderr) \(output.stdout.prefix(2000))")
            return Self.shown(output).filter { !$0.contains(#""state":"validating""#) }.map { line in
                line.contains("username.available") ? "available" : line.contains("check.budgetExceeded") ? "refused" : line
            }
        }
        // The harvester spends the store's five, then is answered while it is quiet (12 checks), then refused.
        #expect(try run("harvester", 14) == Array(repeating: "available", count: 12) + ["refused", "refused"])
        // A person in another process, on the spent budget: answered.
        #expect(try run("person", 2) == ["available", "available"])
        #expect(try server.query("SELECT sum(spent) FROM check_windows") == ["5"])
    }
}
