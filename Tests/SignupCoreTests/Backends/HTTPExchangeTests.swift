import Foundation
import Synchronization
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport

/// The HTTP exchange's own limits and headers, against a real server on loopback (issue 37:
/// checks send declared headers; an answer over the body limit is unavailable, never read whole).
@Suite struct HTTPExchangeTests {
    private static func exchange(_ request: HTTPRequest) -> Result<HTTPAnswer, BackendError> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<HTTPAnswer, BackendError>?>(nil)
        _ = HTTPExchange.start(request) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }

    private static func request(_ url: String, headers: [(name: String, value: String)] = [], maxBodyBytes: Int = 64) -> HTTPRequest {
        HTTPRequest(method: "GET", url: url, timeout: .seconds(10), headers: headers, maxBodyBytes: maxBodyBytes)
    }

    @Test func declaredHeadersReachTheServer() throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { server.stop() }
        let answer = Self.exchange(Self.request(server.url("/invites/abc"), headers: [("Authorization", "Bearer s3cret"), ("X-Product", "signup")]))
        #expect(answer.map(\.status) == .success(204))
        #expect(server.requests.map { [$0.headers["authorization"], $0.headers["x-product"]] } == [["Bearer s3cret", "signup"]])
    }

    @Test func aHeaderThatBreaksItsLineIsNeverSent() throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 204) }
        defer { server.stop() }
        for header in [("X-A", "one\r\nX-Injected: two"), ("X-B", "one\ntwo"), ("X-C: d", "e"), ("", "f"), ("X-E", "g\u{0}h")] {
            #expect(Self.exchange(Self.request(server.url("/x"), headers: [header])).map(\.status)
                == .failure(.unavailable(reason: "a request header's name or value breaks its line")))
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aBodyUpToTheLimitIsReadAndALongerOneIsUnavailable() throws {
        let server = try LoopbackHTTPServer { request in
            .respond(status: 200, body: String(repeating: "x", count: request.path == "/at" ? 64 : 65))
        }
        defer { server.stop() }
        #expect(Self.exchange(Self.request(server.url("/at"))).map(\.body.count) == .success(64))
        #expect(Self.exchange(Self.request(server.url("/over"))).map(\.status)
            == .failure(.unavailable(reason: "the answer's body is longer than 64 bytes")))
    }
}
