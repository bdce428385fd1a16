import Testing
@testable import SignupCore

/// The `signup` form against RxSwift's own GitHubSignup marble tests
/// (`RxExample_iOSTests.testGitHubSignup_vanillaObservables_1_testEnabledUserInterfaceElements`
/// for `GithubSignupViewModel1` and `testGitHubSignup_drivers_2_testEnabledUserInterfaceElements`
/// for `GithubSignupViewModel2`). Both use the same marbles: one character is one tick of 200 ms,
/// the mock API answers availability 3 ticks after it is asked (`---t`, `---f`, `---#`).
///
/// Where the protocol differs from the sample, and why:
/// - The sample's view model has no debounce (`flatMapLatest` straight on the text), so these run
///   with a debounce of 0; with the server's default 300 ms, `validating` still shows at the
///   keystroke and the check starts once typing pauses.
/// - Results are sent only when they change: two failing values in a row give the sample two
///   `failed` events and the protocol one. These marbles never repeat a result, so they agree.
/// - The sample's opening `e` of each input is the protocol's opening events (every field's result
///   and `submitEnabled` false), sent when the form opens.
/// - A tap while submit is disabled is ignored by the sample's disabled button; the protocol
///   answers it with the reason. The marbles tap nothing.
@Suite struct GitHubSignupMarbleTests {
    static let tick: Int64 = 200

    /// RxSwift's marble syntax (`TestScheduler+MarbleTests.swift`): each name between `-` is a value
    /// at the tick of its first character; the ticks are the positions in the string.
    static func events(_ timeline: String) -> [(tick: Int64, name: String)] {
        var events: [(tick: Int64, name: String)] = []
        var time: Int64 = 0
        for segment in timeline.split(separator: "-", omittingEmptySubsequences: false) {
            if !segment.isEmpty { events.append((time, String(segment))) }
            time += Int64(segment.count) + 1
        }
        return events
    }

    static let strings = [
        "u1": "verysecret", "u2": "secretuser", "u3": "secretusername", "p1": "huge secret", "p2": "secret", "e": "",
    ]

    @Test(arguments: ["vanillaObservables_1", "drivers_2"])
    func enabledUserInterfaceElements(upstreamTest: String) throws {
        // The mock API: `secretusername` is free, `secretuser` fails, every other name is taken.
        let harness = FormHarness(script: .init(
            takenNames: ["verysecret"], failingNames: ["secretuser"], checkLatency: .fixed(.milliseconds(3 * Self.tick))))
        let inputs = [
            ("username", "e---u1----u2-----u3-----------------"),
            ("password", "e----------------------p1-----------"),
            ("repeatedPassword", "e---------------------------p2---p1-"),
        ]
        for (field, timeline) in inputs {
            // The opening `e` is the form's opening value.
            for (tick, name) in Self.events(timeline) where tick > 0 {
                harness.edit(at: tick * Self.tick, field, try #require(Self.strings[name]))
            }
        }
        let log = harness.runToIdle()

        let validations = ["e": "empty", "f": "failed", "o": "ok", "v": "validating"]
        let expectedUsername = Self.events("e---v--f--v--f---v--o----------------").map { tick, name in
            "@\(tick * Self.tick) \(validations[name]!)"
        }
        let username = log.filter { $0.contains(" username v") }.map { line in
            let parts = line.split(separator: " ")
            return "\(parts[0]) \(parts[3])"
        }
        #expect(username == expectedUsername)

        let booleans = ["f": "false", "t": "true"]
        let expectedEnabled = Self.events("f--------------------------------t---").map { tick, name in
            "@\(tick * Self.tick) submitEnabled \(booleans[name]!)"
        }
        #expect(log.filter { $0.contains("submitEnabled") } == expectedEnabled)

        // The failure of `secretuser` is the sample's "Error contacting server".
        #expect(log.contains("@2600 username v2: failed backend.unavailable \"Error contacting server\""))
        #expect(harness.directory.checkedNames == ["verysecret", "secretuser", "secretusername"])
    }

    @Test func theMarbleSyntaxReadsAsRxSwiftsDoes() {
        #expect(Self.events("e---u1----u2-----u3--").map(\.tick) == [0, 4, 10, 17])
        #expect(Self.events("e---u1----u2-----u3--").map(\.name) == ["e", "u1", "u2", "u3"])
        #expect(Self.events("------").isEmpty)
    }
}
