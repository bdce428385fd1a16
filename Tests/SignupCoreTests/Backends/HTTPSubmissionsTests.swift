import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport

/// `http` submissions against a real server on loopback: the request they make and how each
/// answer reads, down to the field errors of the three common formats.
@Suite struct HTTPSubmissionsTests {
    private static func route(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        guard request.headers["x-api-key"] == "k3y" else { return .respond(status: 401, body: #"{"detail":"no key"}"#) }
        switch request.path {
        case "/accounts" where request.body.contains(#""username":"bea""#):
            return .respond(status: 422, body: ##"{"type":"about:blank","title":"Invalid","errors":[{"pointer":"#/username","detail":"Taken","code":"username.taken"}]}"##)
        case "/accounts" where request.body.contains(#""username":"jsonapi""#):
            return .respond(status: 400, body: #"{"errors":[{"title":"Bad e-mail","source":{"pointer":"/data/attributes/email"},"meta":{"hint":"x"}}]}"#)
        case "/accounts" where request.body.contains(#""username":"drf""#):
            return .respond(status: 400, body: #"{"email":["Enter a valid e-mail."],"non_field_errors":["Try later"]}"#)
        case "/accounts" where request.body.contains(#""username":"boom""#): return .respond(status: 503)
        case "/accounts": return .respond(status: 201, body: #"{"id":7,"token":"t0k"}"#)
        case "/teams/red/members": return .respond(status: 200)
        default: return .respond(status: 404)
        }
    }

    private final class Outcome: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Result<SubmissionAnswer, BackendError>?
        func finish(_ result: Result<SubmissionAnswer, BackendError>) { value = result; done.signal() }
        func wait() -> Result<SubmissionAnswer, BackendError> { done.wait(); return value! }
    }

    private func send(_ sender: HTTPSubmissions, _ loop: EventLoop, _ request: SubmissionRequest) -> Result<SubmissionAnswer, BackendError> {
        let outcome = Outcome()
        let transfer = UncheckedTransfer((sender, request))
        loop.execute {
            transfer.value.0.send(transfer.value.1).subscribe(
                onNext: { outcome.finish(.success($0)) },
                onError: { outcome.finish(.failure($0 as? BackendError ?? .unavailable(reason: "\($0)"))) })
        }
        return outcome.wait()
    }

    /// The field issues of a refusal, as the form reads them.
    private func issues(_ answer: Result<SubmissionAnswer, BackendError>) -> [ReportedIssue]? {
        guard case .success(.refused(_, let body?)) = answer else { return nil }
        return ReportedIssues.read(body, fields: ["username", "email", "password"])
    }

    @Test func everyFieldIsPostedAndEachAnswerReadsAsItsStatusSays() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-submissions")
        let sender = HTTPSubmissions(loop: loop, environment: { $0 == "API_KEY" ? "k3y" : nil })
        let submission = HTTPSubmission(url: try TextTemplate(server.url("/accounts")), headers: [.init(name: "X-API-Key", environmentVariable: "API_KEY")])
        func request(_ username: String) -> SubmissionRequest {
            SubmissionRequest(kind: "join", submission: submission, fields: ["username": username, "email": "a@b.c", "password": "pw"])
        }
        #expect(send(sender, loop, request("ann")) == .success(.accepted(.object(["id": 7, "token": "t0k"]))))
        #expect(server.requests[0].method == "POST" && server.requests[0].headers["content-type"] == "application/json")
        #expect(server.requests[0].body == #"{"email":"a@b.c","password":"pw","username":"ann"}"#)
        #expect(issues(send(sender, loop, request("bea"))) == [ReportedIssue(field: "username", code: "username.taken", message: "Taken")])
        #expect(issues(send(sender, loop, request("jsonapi")))
            == [ReportedIssue(field: "email", code: "server.invalid", message: "Bad e-mail", params: ["hint": "x"])])
        #expect(issues(send(sender, loop, request("drf"))) == [
            ReportedIssue(field: "email", code: "server.invalid", message: "Enter a valid e-mail."),
            ReportedIssue(field: nil, code: "server.refused", message: "Try later"),
        ])
        #expect(send(sender, loop, request("boom")) == .failure(.unavailable(reason: "HTTP status 503")))
    }

    @Test func aTemplateShapesTheRequestAndAMissingVariableSendsNothing() throws {
        let server = try LoopbackHTTPServer(Self.route)
        defer { server.stop() }
        let loop = EventLoop(label: "test.http-submissions.template")
        let sender = HTTPSubmissions(loop: loop, environment: { $0 == "API_KEY" ? "k3y" : nil })
        var submission = HTTPSubmission(
            method: .put, url: try TextTemplate(server.url("/teams/{team}/members")), body: .object(["member": .object(["name": "{username}"])]),
            headers: [.init(name: "X-API-Key", environmentVariable: "API_KEY")])
        let fields = ["team": "red", "username": "ann"]
        #expect(send(sender, loop, SubmissionRequest(kind: "team", submission: submission, fields: fields)) == .success(.accepted(.object([:]))))
        #expect(server.requests.map { "\($0.method) \($0.path) \($0.body)" } == [#"PUT /teams/red/members {"member":{"name":"ann"}}"#])
        submission.headers = [.init(name: "X-API-Key", environmentVariable: "NOT_SET")]
        #expect(send(sender, loop, SubmissionRequest(kind: "team", submission: submission, fields: fields))
            == .failure(.unavailable(reason: "the environment variable NOT_SET is not set")))
        #expect(server.requests.count == 1)
    }
}
