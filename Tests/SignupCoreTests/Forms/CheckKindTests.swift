import Testing
@testable import SignupCore

/// Each kind of remote check says, in its own type, everything the rest of the system asks of it.
@Suite struct CheckKindTests {
    struct Traits: Equatable {
        var name: String
        var answerer: CheckAnswerer
        var countsAgainstBudgets: Bool
        var passesWhenUnavailable: Bool
        var mayEchoItsValue: Bool
        var claimsTheValue: Bool
        var reads: [String]
    }

    private static func traits(_ kind: RemoteCheck.Kind) -> Traits {
        let type = kind.type
        return Traits(
            name: kind.name, answerer: type.answerer, countsAgainstBudgets: type.countsAgainstBudgets,
            passesWhenUnavailable: type.passesWhenUnavailable, mayEchoItsValue: type.mayEchoItsValue,
            claimsTheValue: type.claimsTheValue, reads: type.reads)
    }

    @Test func eachKindSaysWhatItIs() throws {
        let invite = HTTPCheck(url: try TextTemplate("https://api.example/invites/{value}?team={team}"), whenUnavailable: .pass)
        #expect(Self.traits(.usernameAvailability) == Traits(
            name: "usernameAvailability", answerer: .directoryAvailability, countsAgainstBudgets: true,
            passesWhenUnavailable: false, mayEchoItsValue: true, claimsTheValue: false, reads: []))
        #expect(Self.traits(.unique) == Traits(
            name: "unique", answerer: .directoryFields, countsAgainstBudgets: true,
            passesWhenUnavailable: false, mayEchoItsValue: false, claimsTheValue: true, reads: []))
        #expect(Self.traits(.http(invite)) == Traits(
            name: "http", answerer: .network, countsAgainstBudgets: false,
            passesWhenUnavailable: true, mayEchoItsValue: true, claimsTheValue: false, reads: ["team"]))
        #expect(Self.traits(.breachedPassword(BreachedPasswordCheck(whenUnavailable: .unavailable))) == Traits(
            name: "breachedPassword", answerer: .network, countsAgainstBudgets: false,
            passesWhenUnavailable: false, mayEchoItsValue: false, claimsTheValue: false, reads: []))
    }

    /// A recording keeps the username check as the `availability` call it always was, and every
    /// other kind as a named check with what it sends.
    @Test func aRecordingKeepsEachKindsQuestionAsItsAnswererSays() {
        let check = RemoteCheck(kind: .usernameAvailability, validating: Message("v", ""), passed: Message("p", ""),
                                rejected: Message("r", ""), unavailable: Message("u", ""))
        #expect(BackendQuestion(CheckQuestion(check: check, value: "ann")) == .availability(username: "ann"))
        var unique = check
        unique.kind = .unique
        unique.name = "email"
        #expect(BackendQuestion(CheckQuestion(check: unique, value: "a@example.com")) == .check(name: "email", inputs: ["value": "a@example.com"]))
    }
}
