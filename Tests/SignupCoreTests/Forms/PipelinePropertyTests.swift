import Testing
@testable import SignupBackends
@testable import SignupCore

/// Random edit sequences against random backend latencies, checked against the rules stated
/// directly (an oracle independent of the pipeline's own validator).
@Suite struct PipelinePropertyTests {
    private static let usernames = ["", "alice", "Alice", "bob", "carol", "al ice", "dave", "erin!", "frank"]
    private static let passwords = ["", "abc", "secret", "secret1", "hunter22", "👍🏽👍🏽👍🏽👍🏽👍🏽"]

    @Test(arguments: 0..<150)
    func randomSessionsSettleOnTheDirectAnswer(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let pick = { (options: [String], random: inout SeededGenerator) -> String in
            options[Int(random.next(in: 0...Int64(options.count - 1)))]
        }
        let script = ScriptedDirectory.Script(
            takenNames: Set(Self.usernames.filter { _ in random.next(in: 0...2) == 0 }),
            failingNames: Set(Self.usernames.filter { _ in random.next(in: 0...5) == 0 }),
            checkLatency: .uniform(0...400),
            seed: seed)
        let debounce = [0, 100, 300][Int(random.next(in: 0...2))]
        let harness = FormHarness(script: script, debounce: Int64(debounce))

        var time: Int64 = 0
        for _ in 0..<40 {
            time += random.next(in: 0...250)
            switch random.next(in: 0...2) {
            case 0: harness.edit(at: time, "username", pick(Self.usernames, &random))
            case 1: harness.edit(at: time, "password", pick(Self.passwords, &random))
            default: harness.edit(at: time, "repeatedPassword", pick(Self.passwords, &random))
            }
        }

        var fieldUpdates: [FieldUpdate] = []
        harness.form.events.subscribe(onNext: { event in
            if case .fieldChanged(let update) = event { fieldUpdates.append(update) }
        })
        harness.scheduler.run()

        // No result for an older version is shown after one for a newer version.
        for field in ["username", "password", "repeatedPassword"] {
            let versions = fieldUpdates.filter { $0.field == field }.map(\.version)
            #expect(versions == versions.sorted(), "seed \(seed): \(field) versions \(versions)")
        }

        // Nothing is left validating once the clock has run to idle.
        let snapshot = harness.form.snapshot
        #expect(harness.form.checksInFlight == 0)
        #expect(!snapshot.fields.contains { $0.result.state == .validating }, "seed \(seed)")

        // The final state equals validating the final values directly.
        let values = harness.lastValues
        let expected = oracle(values, directory: harness.directory)
        #expect(snapshot.fields.map(\.result.code) == expected.map(\.code), "seed \(seed) values \(values)")
        #expect(snapshot.fields.map(\.result.state) == expected.map(\.state), "seed \(seed)")
        #expect(snapshot.submitEnabled == expected.allSatisfy { $0.state == .ok })

        // The last event of each field is what the snapshot says.
        for update in snapshot.fields {
            #expect(fieldUpdates.last { $0.field == update.field }?.result == update.result)
        }
    }

    private func oracle(_ values: [String: String], directory: ScriptedDirectory) -> [(state: FieldState, code: String)] {
        let username = values["username", default: ""]
        let password = values["password", default: ""]
        let repeated = values["repeatedPassword", default: ""]
        let usernameResult: (FieldState, String)
        if username.isEmpty {
            usernameResult = (.empty, "username.empty")
        } else if username.contains(where: { !($0.isLetter || $0.isNumber) }) {
            usernameResult = (.failed, "username.invalidCharacters")
        } else {
            switch directory.verdict(for: username) {
            case .available: usernameResult = (.ok, "username.available")
            case .taken: usernameResult = (.failed, "username.taken")
            case .unavailable: usernameResult = (.failed, "backend.unavailable")
            }
        }
        let passwordResult: (FieldState, String) = password.isEmpty ? (.empty, "password.empty")
            : password.count < 5 ? (.failed, "password.tooShort") : (.ok, "password.acceptable")
        let repeatedResult: (FieldState, String) = repeated.isEmpty ? (.empty, "repeatedPassword.empty")
            : repeated == password ? (.ok, "repeatedPassword.matches") : (.failed, "repeatedPassword.different")
        return [usernameResult, passwordResult, repeatedResult]
    }
}
