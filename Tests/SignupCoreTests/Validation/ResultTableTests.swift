import Testing
@testable import SignupCore

@Suite struct ResultTableTests {
    @Test func equalResultsShareAPositionAndDifferentOnesDoNot() {
        var table = ResultTable()
        let ok = table.add(FieldResult(state: .ok, code: "name.ok", message: "Fine"))
        let failed = table.add(FieldResult(state: .failed, code: "name.ok", message: "Fine"))
        let sameOK = table.add(FieldResult(state: .ok, code: "name.ok", message: "Fine"))
        let withParams = table.add(FieldResult(state: .ok, code: "name.ok", params: ["min": .int(5)], message: "Fine"))
        let otherMessage = table.add(FieldResult(state: .ok, code: "name.ok", message: "Good"))
        #expect(sameOK == ok)
        #expect(Set([ok, failed, withParams, otherMessage]).count == 4)
        #expect(table[withParams] == FieldResult(state: .ok, code: "name.ok", params: ["min": .int(5)], message: "Fine"))
        #expect([ok, failed, otherMessage].map(\.state) == [.ok, .failed, .ok])
    }

    @Test func aFormNamesEachResultByItsPositionInItsTable() throws {
        let form = LocalizedForm(definition: .signup)
        let username = try #require(form.remoteChecks[0].first)
        #expect([username.passed, username.rejected, username.unavailable].map { form.results[$0].code } == [
            "username.available", "username.taken", "backend.unavailable",
        ])
        #expect(username.rejected.state == .failed)
        #expect(form.remoteChecks[1].isEmpty && form.remoteChecks[2].isEmpty)
    }
}
