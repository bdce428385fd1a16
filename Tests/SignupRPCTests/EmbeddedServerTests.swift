import SignupCore
import Testing
@testable import SignupProtocol
@testable import SignupServer

/// The server tested on typed values (`EmbeddedServer`): each request's typed result and every
/// event it causes, in order, none skipped. The byte-exact wire tests stand beside these.
@Suite struct EmbeddedServerTests {
    private static func update(_ field: String, _ state: FieldState, _ code: String, _ message: String,
                               params: [String: JSONValue] = [:], version: Int) -> FormEvent {
        .fieldChanged(FieldUpdate(field: field, result: FieldResult(state: state, code: code, params: params, message: message), version: version))
    }

    @Test func aNameIsJudgedLocallyAtOnceAndByTheDirectoryAfterTheQuietPeriod() throws {
        let embedded = EmbeddedServer()
        let opened = try embedded.send(FormOpenRequest(form: "f"))
        #expect((opened.form, opened.kind, opened.version, opened.locale) == ("f", "signup", 0, "en"))
        #expect(embedded.readEvents() == [
            SentEvent(form: "f", event: Self.update("username", .empty, "username.empty", "", version: 0), at: 0),
            SentEvent(form: "f", event: Self.update("password", .empty, "password.empty", "", version: 0), at: 0),
            SentEvent(form: "f", event: Self.update("repeatedPassword", .empty, "repeatedPassword.empty", "", version: 0), at: 0),
            SentEvent(form: "f", event: .submitEnabledChanged(false), at: 0),
        ])

        let edited = try embedded.send(FormEditRequest(form: "f", field: "username", value: "alice", at: 10))
        #expect((edited.form, edited.version) == ("f", 1))
        #expect(embedded.readEvents() == [
            SentEvent(form: "f", event: Self.update("username", .validating, "username.checking", "Checking availability...", version: 1), at: 10),
        ])
        // The 300 ms quiet period, then the scripted directory's 200 ms.
        embedded.advance(by: 499)
        #expect(embedded.readEvents() == [])
        embedded.advance(by: 1)
        #expect(embedded.readEvents() == [
            SentEvent(form: "f", event: Self.update("username", .ok, "username.available", "Username available", version: 1), at: 510),
        ])
    }

    @Test func aNewerEditSupersedesTheCheckInFlightAndOnlyItsAnswerIsSent() throws {
        let embedded = EmbeddedServer()
        _ = try embedded.send(FormOpenRequest(form: "f"))
        _ = embedded.readEvents()
        _ = try embedded.send(FormEditRequest(form: "f", field: "username", value: "alice", at: 0))
        _ = try embedded.send(FormEditRequest(form: "f", field: "username", value: "alice2", at: 400))
        embedded.advance(by: 2000)
        // Still `validating` at 400 ms: an unchanged result is not sent again.
        #expect(embedded.readEvents() == [
            SentEvent(form: "f", event: Self.update("username", .validating, "username.checking", "Checking availability...", version: 1), at: 0),
            SentEvent(form: "f", event: Self.update("username", .ok, "username.available", "Username available", version: 2), at: 900),
        ])
    }

    @Test func aTapBeforeTheFormIsValidIsRefusedAndNothingIsSent() throws {
        let embedded = EmbeddedServer()
        _ = try embedded.send(FormOpenRequest(form: "f"))
        _ = embedded.readEvents()
        let tapped = try embedded.send(FormSubmitRequest(form: "f"))
        #expect(tapped.form == "f")
        #expect(tapped.rejection == .invalid)
        #expect(embedded.readEvents() == [])
    }

    @Test func errorsAreTypedValues() throws {
        let embedded = EmbeddedServer()
        #expect(throws: RPCError.unknownForm("nope")) { try embedded.send(FormSnapshotRequest(form: "nope")) }
        _ = try embedded.send(FormOpenRequest(form: "f", at: 100))
        #expect(throws: RPCError.formIDInUse("f")) { try embedded.send(FormOpenRequest(form: "f")) }
        #expect(throws: RPCError.timeWentBackwards(now: 100, requested: 50)) { try embedded.send(FormCloseRequest(form: "f", at: 50)) }
        #expect(try embedded.send(ClockAdvanceRequest(.by(5))).now == 105)
        _ = try embedded.send(ShutdownRequest(Params()))
        #expect(throws: RPCError.shuttingDown) { try embedded.send(FormCloseRequest(form: "f")) }
    }
}
