import Foundation
import SignupCore

/// Sends `http` submissions to the APIs their forms declare, with header values read from the
/// environment when sent, answered on the event loop.
public final class HTTPSubmissions: SubmissionSending {
    private let client: HTTPClient
    private let environment: (String) -> String?

    /// `environment` gives the value of an environment variable, the process's own by default.
    public init(loop: EventLoop, environment: @escaping (String) -> String? = { ProcessInfo.processInfo.environment[$0] }) {
        client = HTTPClient(loop: loop)
        self.environment = environment
    }

    public func send(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer> {
        let made: HTTPRequest
        switch self.request(for: request) {
        case .success(let request): made = request
        case .failure(let error): return .fail(error)
        }
        let answers = client.exchange(made)
        return EventStream { observer in
            answers.subscribe(Observer { event in
                switch event {
                case .next(let reply):
                    let body = HTTPClient.jsonValue(from: reply.body)
                    switch reply.status {
                    case 200..<300: InlineWorkRunner.deliver(.success(.accepted(body ?? .object([:]))), to: observer)
                    case 400..<500: InlineWorkRunner.deliver(.success(.refused(status: reply.status, body: body)), to: observer)
                    default: observer.onError(BackendError.unavailable(reason: "HTTP status \(reply.status)"))
                    }
                case .error(let error): observer.onError(error)
                case .completed: break
                }
            })
        }
    }

    /// The request a submission makes; an error when a header's variable is not set.
    func request(for request: SubmissionRequest) -> Result<HTTPRequest, BackendError> {
        let submission = request.submission
        let value = { (name: String) in request.fields[name] }
        var body = JSONValue.object(request.fields.mapValues(JSONValue.string))
        if let template = submission.body {
            guard let rendered = template.renderingTemplates(value) else {
                return .failure(.unavailable(reason: "the submission's body names a field the form does not have"))
            }
            body = rendered
        }
        return HTTPClient.request(
            method: submission.method.rawValue, url: submission.url, values: value, body: body, headers: submission.headers,
            environment: environment, timeout: submission.timeout, maxBodyBytes: submission.maxBodyBytes)
    }
}
