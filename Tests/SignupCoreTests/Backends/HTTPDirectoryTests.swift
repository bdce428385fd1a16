import Foundation
import Testing
@testable import SignupCore
import SignupTestSupport

/// The HTTP backend against a real server on loopback. Waits are for answers, never sleeps; only
/// lower bounds on time are asserted.
@Suite struct HTTPDirectoryTests {
    /// Routes: /users/<name> answers by name; /signup registers.
    private static func route(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        switch request.path {
        case "/users/free": return .respond(status: 404)
        case "/users/taken": return .respond(status: 200, body: #"{"login":"taken"}"#)
        case "/users/broken": return .respond(status: 500)
        case "/users/slow": return .respond(status: 404, after: 3000)
        case "/users/hangup": return .drop
        case "/signup":
            if request.body.contains(#""username":"dup""#) { return .respond(status: 409) }
            if request.body.contains(#""username":"boom""#) { return .respond(status: 503) }
            return .respond(status: 201, body: #"{"id":42,"username":"newbie","admin":false,"score":1.5}"#)
        default: return .respond(status: 404)
        }
    }

    private final class Outcome<Value>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Result<Value, BackendError>?
        func finish(_ result: Result<Value, BackendError>) { value = result; done.signal() }
        var isFinished: Bool { value != nil }
        func wait() -> Result<Value, BackendError> { done.wait(); return value! }
    }

    /// Subscribes on the loop and waits for the single answer.
    private func answer<Value>(_ loop: EventLoop, _ makeStream: @escaping () -> EventStream<Value>) -> Result<Value, BackendError> {
        let outcome = Outcome<Value>()
        let transfer = UncheckedTransfer(makeStream)
        loop.execute {
            transfer.value().subscribe(
                onNext: { outcome.finish(.success($0)) },
                onError: { outcome.finish(.failure($0 as? BackendError ?? .unavailable(reason: "\($0)"))) })
        }
        return outcome.wait()
    }

    private func directory(_ server: LoopbackHTTPServer, loop: EventLoop, timeout: Int64 = 5000) -> HTTPDirectory {
        HTTPDirectory(configuration: .init(
            availabilityTemplate: server.url("/users/{username}"), signupURL: URL(string: server.url("/signup"))!,
            timeout: .milliseconds(timeout)), loop: loop)
    }

    @Test func availabilityFollowsTheStatusCode() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http")
        let http = directory(server, loop: loop)
        #expect(answer(loop) { http.availability(of: "free") } == .success(.available))
        #expect(answer(loop) { http.availability(of: "taken") } == .success(.taken))
        #expect(answer(loop) { http.availability(of: "broken") } == .failure(.unavailable(reason: "HTTP status 500")))
        guard case .failure = answer(loop, { http.availability(of: "hangup") }) else {
            Issue.record("a dropped connection must be an error, not a verdict")
            return
        }
        #expect(server.requests.map(\.method) == ["GET", "GET", "GET", "GET"])
    }

    @Test func aSlowServerTimesOut() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.timeout")
        let http = directory(server, loop: loop, timeout: 300)
        let start = Date()
        #expect(answer(loop) { http.availability(of: "slow") } == .failure(.timedOut))
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test func namesArePercentEncoded() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.escape")
        let http = directory(server, loop: loop)
        #expect(http.availabilityURL(for: "zoë smith/?#&")?.absoluteString == server.url("/users/zo%C3%AB%20smith%2F%3F%23%26"))
        #expect(answer(loop) { http.availability(of: "zoë smith/?#&") } == .success(.available))
        #expect(server.requests.map(\.path) == ["/users/zo%C3%AB%20smith%2F%3F%23%26"])
    }

    @Test func registrationPostsJSONAndMapsTheAnswer() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.signup")
        let http = directory(server, loop: loop)
        #expect(answer(loop) { http.register(username: "newbie", password: "s3cret!") } == .success(.registered(
            account: .object(["id": 42, "username": "newbie", "admin": false, "score": .double(1.5)]))))
        #expect(answer(loop) { http.register(username: "dup", password: "x") } == .success(.usernameTaken))
        #expect(answer(loop) { http.register(username: "boom", password: "x") }
            == .success(.refused(reason: "HTTP status 503", details: ["status": 503])))
        let first = try #require(server.requests.first)
        #expect(first.method == "POST")
        let body = try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: String]
        #expect(body == ["username": "newbie", "password": "s3cret!"])
    }

    @Test func aSupersededCheckCancelsItsRequest() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.cancel")
        let http = directory(server, loop: loop)
        let delivered = Outcome<Availability>()
        let subscription = SerialDisposable()
        let transfer = UncheckedTransfer(subscription)
        let client = UncheckedTransfer(http)
        loop.execute {
            transfer.value.disposable = client.value.availability(of: "slow").subscribe(
                onNext: { delivered.finish(.success($0)) }, onError: { _ in delivered.finish(.failure(.timedOut)) })
        }
        // Once the server has the request, give up on it: the server sees the connection close.
        server.waitForRequest()
        loop.sync { transfer.value.dispose() }
        server.waitForAbort()
        #expect(server.aborted == ["/users/slow"])
        loop.sync {}
        #expect(!delivered.isFinished, "a cancelled check's answer must never be delivered")
    }
}
