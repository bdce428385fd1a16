import Foundation
import Testing
@testable import SignupBackends
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
        case "/login":
            if request.body.contains(#""password":"right""#) { return .respond(status: 200, body: #"{"token":"t0k3n"}"#) }
            if request.body.contains(#""username":"hammered""#) { return .respond(status: 429) }
            if request.body.contains(#""username":"tokenless""#) { return .respond(status: 200, body: "{}") }
            if request.body.contains(#""username":"down""#) { return .respond(status: 502) }
            return .respond(status: request.body.contains(#""username":"banned""#) ? 403 : 401)
        case "/friends":
            if request.body.contains(#""phone":"+15550100""#) { return .respond(status: 409) }
            return .respond(status: 201, body: #"{"id":7,"firstName":"Ada"}"#)
        case "/friends/1": return .respond(status: 200, body: "{}")
        case "/friends/2": return .respond(status: 403)
        case "/friends/3": return .respond(status: 401)
        case "/friends/4": return .respond(status: 500)
        case "/friends/a%2Fb": return .respond(status: 204)
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
            loginURL: URL(string: server.url("/login")), friendsURL: URL(string: server.url("/friends")),
            timeout: .milliseconds(timeout)), loop: loop)
    }

    @Test func loginPostsJSONAndMapsTheStatus() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.login")
        let http = directory(server, loop: loop)
        #expect(answer(loop) { http.logIn(username: "ada", password: "right") } == .success(.loggedIn(token: "t0k3n")))
        #expect(answer(loop) { http.logIn(username: "ada", password: "wrong") } == .success(.wrongCredentials))
        #expect(answer(loop) { http.logIn(username: "banned", password: "x") } == .success(.wrongCredentials))
        #expect(answer(loop) { http.logIn(username: "hammered", password: "x") } == .success(.rateLimited))
        #expect(answer(loop) { http.logIn(username: "tokenless", password: "x") }
            == .failure(.unavailable(reason: #"the login answer has no "token" string"#)))
        #expect(answer(loop) { http.logIn(username: "down", password: "x") } == .failure(.unavailable(reason: "HTTP status 502")))
        let first = try #require(server.requests.first)
        #expect(first.method == "POST" && first.path == "/login")
        #expect(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: String] == ["username": "ada", "password": "right"])
    }

    @Test func friendsArePostedToAddAndPatchedToUpdate() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.friends")
        let http = directory(server, loop: loop)
        let ada = Friend(firstName: "Ada", lastName: "Lovelace", phone: "+442079460000")
        #expect(answer(loop) { http.add(ada) } == .success(.saved(id: "7")))
        #expect(answer(loop) { http.add(Friend(firstName: "G", lastName: "H", phone: "+15550100")) } == .success(.conflict))
        #expect(answer(loop) { http.update("1", to: ada) } == .success(.saved(id: "1")))
        #expect(answer(loop) { http.update("2", to: ada) } == .success(.unauthorised))
        #expect(answer(loop) { http.update("3", to: ada) } == .success(.unauthorised))
        #expect(answer(loop) { http.update("9", to: ada) } == .success(.notFound))
        #expect(answer(loop) { http.update("4", to: ada) } == .failure(.unavailable(reason: "HTTP status 500")))
        #expect(answer(loop) { http.update("a/b", to: ada) } == .success(.saved(id: "a/b")))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == [
            "POST /friends", "POST /friends", "PATCH /friends/1", "PATCH /friends/2", "PATCH /friends/3",
            "PATCH /friends/9", "PATCH /friends/4", "PATCH /friends/a%2Fb",
        ])
        #expect(try JSONSerialization.jsonObject(with: Data(server.requests[0].body.utf8)) as? [String: String]
            == ["firstName": "Ada", "lastName": "Lovelace", "phone": "+442079460000"])
    }

    @Test func withoutTheirURLsLoginAndFriendsAreUnavailable() {
        let loop = EventLoop(label: "test.http.unconfigured")
        let http = HTTPDirectory(configuration: .init(
            availabilityTemplate: "http://127.0.0.1:9/users/{username}", signupURL: URL(string: "http://127.0.0.1:9/signup")!), loop: loop)
        #expect(answer(loop) { http.logIn(username: "a", password: "b") }
            == .failure(.unavailable(reason: "no login URL is configured (--login-url)")))
        #expect(answer(loop) { http.add(Friend(firstName: "a", lastName: "b", phone: "1234567")) }
            == .failure(.unavailable(reason: "no friends URL is configured (--friends-url)")))
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

    @Test func aServerThatIsNotListeningIsUnavailable() {
        let loop = EventLoop(label: "test.http.refused")
        let http = HTTPDirectory(configuration: .init(
            availabilityTemplate: "http://127.0.0.1:9/users/{username}", signupURL: URL(string: "http://127.0.0.1:9/signup")!), loop: loop)
        guard case .failure(.unavailable(let reason)) = answer(loop, { http.availability(of: "anyone") }) else {
            Issue.record("a refused connection must be backend.unavailable")
            return
        }
        // libcurl's own words, which name where it could not connect.
        #expect(reason.contains("127.0.0.1"))
    }

    @Test func answersThatAreNotJSONGiveNoValue() {
        #expect(HTTPClient.jsonValue(from: []) == nil)
        #expect(HTTPClient.jsonValue(from: Array("<html>".utf8)) == nil)
        #expect(HTTPClient.jsonValue(from: Array(#"[1, -2.5e1, "x", null, {"a": [true]}, 12345678901234567890]"#.utf8))
            == .array([1, -25, "x", .null, .object(["a": .array([true])]), .double(1.2345678901234567e19)]))
        #expect(HTTPClient.jsonValue(from: Array("7".utf8)) == .int(7))
    }

    @Test func aSlowServerTimesOut() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http.timeout")
        let http = directory(server, loop: loop, timeout: 300)
        let start = Date()
        #expect(answer(loop) { http.availability(of: "slow") } == .failure(.timedOut))
        // No sooner than the timeout, to libcurl's millisecond (it counts from the request's sending).
        #expect(Date().timeIntervalSince(start) >= 0.299)
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
        #expect(server.waitForRequest())
        loop.sync { transfer.value.dispose() }
        #expect(server.waitForAbort())
        #expect(server.aborted == ["/users/slow"])
        loop.sync {}
        #expect(!delivered.isFinished, "a cancelled check's answer must never be delivered")
    }
}
