import Foundation
import Testing
import SignupBackends
import SignupCore
import SignupTestSupport

/// Look-alike usernames through the real binary (issue 38 §3): two processes racing to register
/// names that differ only by a Cyrillic а (`pаypal7` beside `paypal7`), on one SQLite file or one
/// PostgreSQL database, have exactly one winner per pair: the store keeps one name per skeleton.
@Suite struct LookAlikeRaceTests {
    static let pairs = 12

    /// Process 0 spells each name in Latin, process 1 with a Cyrillic а; each signs up at once.
    static func session(process: Int) -> String {
        (0..<pairs).flatMap { index in
            let name = (process == 0 ? "paypal" : "p\u{0430}ypal") + "\(index)"
            let values = #"{"username":"\#(name)","password":"secret-\#(process)-\#(index)","repeatedPassword":"secret-\#(process)-\#(index)"}"#
            return [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"signup","form":"r\#(index)","values":\#(values),"at":\#(index * 10)}}"#,
                    #"{"jsonrpc":"2.0","id":\#(index),"method":"form.submit","params":{"form":"r\#(index)","at":\#(index * 10 + 1)}}"#]
        }.joined(separator: "\n") + "\n"
    }

    /// Per pair, how many of the two processes registered it.
    static func race(store: String) throws -> [Int] {
        final class Outputs: @unchecked Sendable {
            let lock = NSLock()
            var byProcess: [Int: Subprocess.Output] = [:]
        }
        let outputs = Outputs()
        DispatchQueue.concurrentPerform(iterations: 2) { process in
            let output = try? Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", store], input: session(process: process))
            outputs.lock.withLock { outputs.byProcess[process] = output }
        }
        var winners = [Int](repeating: 0, count: pairs)
        for process in 0..<2 {
            let output = try #require(outputs.byProcess[process])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            #expect(!output.stdout.contains("secret-") && !output.stderr.contains("secret-"))
            for index in 0..<pairs {
                let form = #""form":"r\#(index)""#
                let lines = output.lines.filter { $0.contains(form + ",") || $0.contains(form + "}") }
                if lines.contains(where: { $0.contains(#""state":"succeeded""#) }) { winners[index] += 1 }
            }
        }
        return winners
    }

    @Test func twoProcessesOnOneSQLiteFileRegisterOneNameOfEachLookAlikePair() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        #expect(try Self.race(store: store) == [Int](repeating: 1, count: Self.pairs))
        let users = try UserStore(path: store)
        #expect(try users.registeredNames().count == Self.pairs)
        for index in 0..<Self.pairs {
            #expect(try users.isRegistered("paypal\(index)") && users.isRegistered("p\u{0430}ypal\(index)") && users.isRegistered("PAYPA1\(index)"))
        }
        #expect(try users.register("p\u{0430}ypa1\(0)", passwordHash: "$y$x", fields: AccountFields(kind: "signup")) == .usernameTaken)
    }

    @Test(.enabled(if: PostgresServer.isInstalled, "needs Debian's postgresql"))
    func twoProcessesOnOnePostgreSQLDatabaseRegisterOneNameOfEachLookAlikePair() throws {
        let server = try PostgresServer()
        #expect(try Self.race(store: server.conninfo) == [Int](repeating: 1, count: Self.pairs))
        #expect(try server.query("SELECT count(*) FROM users") == ["\(Self.pairs)"])
        #expect(try server.query("SELECT count(*) FROM username_skeletons") == ["\(Self.pairs)"])
    }
}
