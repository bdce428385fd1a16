import Testing
@testable import SignupCore

/// `FieldResult` shares its texts between copies; it must still behave as a plain value.
@Suite struct FieldResultTests {
    @Test func resultsBuiltApartAreEqualWhenEveryPartIsAndHashAlike() {
        let first = FieldResult(state: .failed, code: "password.tooShort", params: ["min": .int(5)], message: "Too short")
        let second = FieldResult(state: .failed, code: "password.tooShort", params: ["min": .int(5)], message: "Too short")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(Set([first, second]).count == 1)
    }

    @Test func anyDifferingPartMakesResultsUnequal() {
        let base = FieldResult(state: .failed, code: "password.tooShort", params: ["min": .int(5)], message: "Too short")
        var state = base, code = base, params = base, message = base
        state.state = .ok
        code.code = "password.tooLong"
        params.params = ["min": .int(6)]
        message.message = "Zu kurz"
        #expect([state, code, params, message].allSatisfy { $0 != base })
        #expect(Set([base, state, code, params, message]).count == 5)
    }

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = FieldResult(state: .validating, code: "username.checking", message: "Checking…")
        var copy = original
        copy.message = "Prüfe…"
        copy.params = ["n": .int(1)]
        #expect(original.message == "Checking…")
        #expect(original.params.isEmpty)
        #expect(copy.code == "username.checking")
        #expect(copy.description == #"validating username.checking n=1 "Prüfe…""#)
        #expect(original.description == #"validating username.checking "Checking…""#)
    }
}
