import Foundation
import Testing
@testable import SignupCore

/// Issue 37 §1: how an `http` check reads its answer, by status or from a JSON body.
@Suite struct CheckAnswerReadingTests {
    static func json(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func byStatusAnyStatusListedNeitherWayIsUnavailable() {
        let reading = CheckAnswerReading.status(passed: [200, 204], rejected: [404, 410])
        #expect(reading.verdict(status: 204, body: nil) == .passed)
        #expect(reading.verdict(status: 410, body: Self.json(#"{"valid":true}"#)) == .rejected(nil))
        for status in [201, 302, 400, 500, 503] {
            #expect(reading.verdict(status: status, body: nil) == nil, "\(status)")
        }
    }

    @Test func fromTheBodyTheBackendsOwnCodeMessageAndParams() {
        let reading = CheckAnswerReading.body
        #expect(reading.verdict(status: 200, body: Self.json(#"{"valid":true,"code":"ignored"}"#)) == .passed)
        #expect(reading.verdict(status: 200, body: Self.json(#"{"valid":false,"code":"invite.expired","message":"Expired on {date}","params":{"date":"2026-11-01"}}"#))
            == .rejected(ReportedIssue(field: nil, code: "invite.expired", message: "Expired on {date}", params: ["date": "2026-11-01"])))
        #expect(reading.verdict(status: 200, body: Self.json(#"{"valid":false,"code":"invite.expired"}"#)) == .rejected(nil))
        #expect(reading.verdict(status: 200, body: Self.json(#"{"valid":false}"#)) == .rejected(nil))
    }

    @Test func aBodyOfAnotherShapeOrAFailedStatusIsUnavailable() {
        let reading = CheckAnswerReading.body
        for (status, body) in [(200, "null"), (200, #"{"valid":"no"}"#), (200, #"[true]"#), (500, #"{"valid":true}"#), (404, #"{"valid":false}"#)] {
            #expect(reading.verdict(status: status, body: Self.json(body)) == nil, "\(status) \(body)")
        }
        #expect(reading.verdict(status: 200, body: nil) == nil)
    }

    /// Issue 54: an API that answers a rejected value with 404 or 422 and a verdict body.
    @Test func statusesDeclaredToCarryAVerdictAreReadFromTheirBody() {
        let reading = CheckAnswerReading.fromBody(verdictStatuses: [404, 422])
        #expect(reading.verdict(status: 404, body: Self.json(#"{"valid":false,"code":"invite.unknown","message":"No such invite"}"#))
            == .rejected(ReportedIssue(field: nil, code: "invite.unknown", message: "No such invite")))
        #expect(reading.verdict(status: 422, body: Self.json(#"{"valid":false}"#)) == .rejected(nil))
        #expect(reading.verdict(status: 200, body: Self.json(#"{"valid":true}"#)) == .passed)
        // Any other 4xx, or a declared one without a verdict, is unavailable as before.
        #expect(reading.verdict(status: 409, body: Self.json(#"{"valid":false}"#)) == nil)
        #expect(reading.verdict(status: 404, body: Self.json(#"{"detail":"Not Found"}"#)) == nil)
        #expect(reading.verdict(status: 404, body: nil) == nil)
    }
}
