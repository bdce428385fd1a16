import Foundation
import Testing

/// Debounce and latest-only over a real pipe on the wall clock. Only order and lower bounds on
/// time are asserted: machines here are noisy, so there is never an upper bound.
@Suite struct RealClockTests {
    private struct Event {
        var code: String
        var version: Int
        var at: Int
    }

    private func usernameEvents(_ output: Subprocess.Output) -> [Event] {
        output.lines.compactMap { line in
            guard line.contains(#""field":"username""#),
                  let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let params = json["params"] as? [String: Any],
                  let code = params["code"] as? String, let version = params["version"] as? Int,
                  let at = params["at"] as? Int else { return nil }
            return Event(code: code, version: version, at: at)
        }
    }

    private func edit(_ value: String) -> String {
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"\#(value)"}}"# + "\n"
    }

    @Test func aBurstIsCheckedOnceForItsLastValueAfterTheQuietPeriod() throws {
        let output = try Subprocess.run(["--clock", "real", "--debounce-ms", "300"],
                                        input: edit("a") + edit("al") + edit("alice"))
        #expect(output.status == 0)
        let events = usernameEvents(output)
        #expect(events.map(\.code) == ["username.empty", "username.checking", "username.available"])
        #expect(events.map(\.version) == [0, 1, 3])
        // 300 ms of quiet, then the built-in directory's 200 ms check.
        #expect(events[2].at - events[1].at >= 500)
    }

    @Test func aSupersededCheckNeverShowsItsAnswer() throws {
        let output = try Subprocess.run(["--clock", "real", "--debounce-ms", "0"],
                                        input: edit("octocat") + edit("alice"))
        #expect(output.status == 0)
        let events = usernameEvents(output)
        #expect(events.map(\.code) == ["username.empty", "username.checking", "username.available"])
        #expect(events.last?.version == 2)
        #expect(!output.stdout.contains("username.taken"))
        #expect(events[2].at - events[1].at >= 200)
    }
}
