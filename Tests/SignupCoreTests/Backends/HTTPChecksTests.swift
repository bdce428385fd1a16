import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport

/// `http` checks against a real server on loopback: the request a check's templates make, its
/// headers from the environment, how its answer is read, its cache, and what an unreachable,
/// failing, slow or oversized backend gives. Waits are for answers, never sleeps.
@Suite struct HTTPChecksTests {
    /// /invites/<code>?email=…: GOOD passes, OLD is expired (with params), others are unknown;
    /// /status/<n> answers n; /slow answers after 3 s; /huge with 100 KiB.
    private static func route(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        if request.headers["authorization"] != "Bearer s3cret" { return .respond(status: 401) }
        if request.path.hasPrefix("/invites/GOOD") { return .respond(status: 200, body: #"{"valid":true}"#) }
        if request.path.hasPrefix("/invites/OLD") {
            return .respond(status: 200, body: #"{"valid":false,"code":"invite.expired","message":"Expired on {date}","params":{"date":"2026-01-31"}}"#)
        }
        if request.path.hasPrefix("/invites/") { return .respond(status: 200, body: #"{"valid":false}"#) }
        if request.path.hasPrefix("/status/") { return .respond(status: Int(request.path.dropFirst(8).prefix(3))!) }
        if request.path == "/slow" { return .respond(status: 200, body: #"{"valid":true}"#, after: 3000) }
        if request.path == "/huge" { return .respond(status: 200, body: #"{"valid":true,"pad":""# + String(repeating: "x", count: 100_000) + #""}"#) }
        if request.path == "/post" { return .respond(status: 200, body: request.body.contains(#""code":"GOOD""#) ? #"{"valid":true}"# : #"{"valid":false}"#) }
        return .respond(status: 404)
    }

    private final class Outcome: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: String?
        func finish(_ text: String) { value = text; done.signal() }
        func wait() -> String { done.wait(); return value! }
    }

    private final class ManualClock: @unchecked Sendable {
        var now = TimePoint.origin
    }

    private let environment: @Sendable (String) -> String? = { $0 == "INVITE_TOKEN" ? "s3cret" : nil }

    private func check(_ url: String, name: String = "invite", configure: (inout HTTPCheck) -> Void = { _ in }) -> RemoteCheck {
        var http = HTTPCheck(url: try! TextTemplate(url), headers: [.init(name: "Authorization", environmentVariable: "INVITE_TOKEN", prefix: "Bearer ")])
        configure(&http)
        return RemoteCheck(
            name: name, kind: .http(http), validating: Message("c", "…"), passed: Message("p", "ok"), rejected: Message("r", "no"),
            unavailable: Message("u", "down"))
    }

    /// Asks on the loop and waits for the answer, as text.
    private func ask(_ checks: HTTPChecks, _ loop: EventLoop, _ question: CheckQuestion) -> String {
        let outcome = Outcome()
        let transfer = UncheckedTransfer((checks, question))
        loop.execute {
            _ = transfer.value.0.ask(transfer.value.1) { answer in
                switch answer {
                case .success(let verdict): outcome.finish("\(verdict)")
                case .failure(let error): outcome.finish("error: \(error)")
                }
            }
        }
        return outcome.wait()
    }

    @Test func theURLCarriesTheValueAndTheFieldsItReadsPercentEncodedAndTheHeaderFromTheEnvironment() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-checks.url")
        let checks = HTTPChecks(loop: loop, environment: environment)
        let invite = check(server.url("/invites/{value}?email={email}"))
        #expect(ask(checks, loop, CheckQuestion(check: invite, value: "GOOD 1/2", otherValues: ["ann+x@example.com"])) == "passed")
        #expect(ask(checks, loop, CheckQuestion(check: invite, value: "NOPE", otherValues: ["ann@example.com"])) == "rejected(nil)")
        #expect(ask(checks, loop, CheckQuestion(check: invite, value: "OLD", otherValues: ["ann@example.com"]))
            == #"rejected(Optional(SignupCore.ReportedIssue(field: nil, code: "invite.expired", message: "Expired on {date}", params: ["date": SignupCore.JSONValue.string("2026-01-31")])))"#)
        #expect(server.requests.map(\.path) == [
            "/invites/GOOD%201%2F2?email=ann%2Bx%40example.com", "/invites/NOPE?email=ann%40example.com", "/invites/OLD?email=ann%40example.com",
        ])
        #expect(server.requests.allSatisfy { $0.method == "GET" && $0.headers["authorization"] == "Bearer s3cret" })
    }

    @Test func aPostSendsItsBodyTemplateAsJSON() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-checks.post")
        let checks = HTTPChecks(loop: loop, environment: environment)
        let posted = check(server.url("/post")) {
            $0.method = .post
            $0.body = .object(["code": "{value}", "who": .object(["email": "{email}"]), "n": 1])
        }
        #expect(ask(checks, loop, CheckQuestion(check: posted, value: "GOOD", otherValues: ["a@b.c"])) == "passed")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST" && request.headers["content-type"] == "application/json")
        #expect(request.body == #"{"code":"GOOD","n":1,"who":{"email":"a@b.c"}}"#)
    }

    @Test func statusListsDecideWhenTheCheckReadsByStatus() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-checks.status")
        let checks = HTTPChecks(loop: loop, environment: environment)
        let byStatus = check(server.url("/status/{value}")) { $0.answer = .status(passed: [404], rejected: [200, 409]) }
        #expect(ask(checks, loop, CheckQuestion(check: byStatus, value: "404")) == "passed")
        #expect(ask(checks, loop, CheckQuestion(check: byStatus, value: "409")) == "rejected(nil)")
        #expect(ask(checks, loop, CheckQuestion(check: byStatus, value: "503")) == "error: backend unavailable: HTTP status 503 is no verdict of this check")
    }

    @Test func aFailingSlowOrOversizedAnswerAndAMissingVariableAreErrors() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-checks.errors")
        let checks = HTTPChecks(loop: loop, environment: environment)
        #expect(ask(checks, loop, CheckQuestion(check: check(server.url("/status/500")), value: "x"))
            == "error: backend unavailable: HTTP status 500 is no verdict of this check")
        #expect(ask(checks, loop, CheckQuestion(check: check(server.url("/slow")) { $0.timeout = .milliseconds(200) }, value: "x"))
            == "error: \(BackendError.timedOut)")
        #expect(ask(checks, loop, CheckQuestion(check: check(server.url("/huge")), value: "x"))
            == "error: backend unavailable: the answer's body is longer than 65536 bytes")
        let unset = check(server.url("/invites/{value}")) { $0.headers = [.init(name: "X-Key", environmentVariable: "UNSET_VARIABLE")] }
        #expect(ask(checks, loop, CheckQuestion(check: unset, value: "GOOD")) == "error: backend unavailable: the environment variable UNSET_VARIABLE is not set")
        // The client may give up on /slow before its request is even sent (seen under CI's
        // AddressSanitizer run), so the server may or may not have read it, and when is unordered.
        #expect(server.requests.map(\.path).filter { $0 != "/slow" } == ["/status/500", "/huge"])
    }

    @Test func aCachedVerdictAnswersTheSameQuestionWithoutARequestUntilItExpires() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-checks.cache")
        let clock = ManualClock()
        let checks = HTTPChecks(loop: loop, environment: environment, now: { clock.now })
        let cached = check(server.url("/invites/{value}")) { $0.cacheFor = .seconds(60) }
        let uncached = check(server.url("/invites/{value}"), name: "fresh")
        for _ in 0..<3 { #expect(ask(checks, loop, CheckQuestion(check: cached, value: "GOOD")) == "passed") }
        #expect(ask(checks, loop, CheckQuestion(check: cached, value: "NOPE")) == "rejected(nil)")
        for _ in 0..<2 { #expect(ask(checks, loop, CheckQuestion(check: uncached, value: "GOOD")) == "passed") }
        clock.now = .origin + .seconds(59)
        #expect(ask(checks, loop, CheckQuestion(check: cached, value: "GOOD")) == "passed")
        clock.now = .origin + .seconds(60)
        #expect(ask(checks, loop, CheckQuestion(check: cached, value: "GOOD")) == "passed")
        #expect(server.requests.map(\.path) == ["/invites/GOOD", "/invites/NOPE", "/invites/GOOD", "/invites/GOOD", "/invites/GOOD"])
    }
}
