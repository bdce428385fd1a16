import Foundation
import SignupCore

/// Asks `http` checks of the APIs their forms declare: the request their templates make, with
/// header values read from the environment at that moment, answered on the event loop and read as
/// the check says. An answer read as no verdict (a status no list names, a 5xx, a body in no shape
/// the check reads), a timeout, a transport error or an oversized body is an error, which the form
/// shows as `unavailable` or passes, as the check declares. Disposing a question cancels its request.
public final class HTTPChecks: RemoteChecking {
    private let client: HTTPClient
    private let environment: (String) -> String?
    private struct CacheKey: Hashable {
        let check: String
        let value: String
        let others: [String]
    }
    /// Verdicts of checks that declare `cacheFor`, until they expire.
    private var cache = ExpiringCache<CacheKey, CheckVerdict>(capacity: 4096)

    /// When cached verdicts expire: the loop's clock, or a test's.
    private let now: () -> TimePoint
    /// `breachedPassword` checks, over the same client and clock.
    private let breached: BreachedPasswords

    /// `environment` gives the value of an environment variable, the process's own by default.
    public convenience init(loop: EventLoop, environment: @escaping (String) -> String? = { ProcessInfo.processInfo.environment[$0] }) {
        self.init(loop: loop, environment: environment, now: nil)
    }

    /// `now` nil counts on the loop's clock.
    init(loop: EventLoop, environment: @escaping (String) -> String?, now: (() -> TimePoint)?) {
        let client = HTTPClient(loop: loop)
        self.client = client
        self.environment = environment
        self.now = now ?? { client.now }
        breached = BreachedPasswords(client: client, now: self.now)
    }

    public func ask(_ question: CheckQuestion, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        switch question.checkKind {
        case .http(let http): return ask(question, http, answer: answer)
        case .breachedPassword(let breaches): return breached.ask(question.value, breaches, answer: answer)
        case .usernameAvailability, .unique:
            answer(.failure(BackendError.unavailable(reason: "check '\(question.checkName)' is not asked over HTTP")))
            return Disposables.empty
        }
    }

    private func ask(
        _ question: CheckQuestion, _ http: HTTPCheck, answer: @escaping (Result<CheckVerdict, any Error>) -> Void
    ) -> any Disposable {
        let key = CacheKey(check: question.checkName, value: question.value, others: question.otherValues)
        if http.cacheFor > .zero, let kept = cache.value(for: key, at: now()) {
            answer(.success(kept))
            return Disposables.empty
        }
        let request: HTTPRequest
        switch self.request(for: question, http) {
        case .success(let made): request = made
        case .failure(let error):
            answer(.failure(error))
            return Disposables.empty
        }
        return client.exchange(request).subscribe(Observer { [weak self] event in
            switch event {
            case .next(let reply):
                guard let verdict = http.answer.verdict(status: reply.status, body: HTTPClient.jsonValue(from: reply.body)) else {
                    return answer(.failure(BackendError.unavailable(reason: "HTTP status \(reply.status) is no verdict of this check")))
                }
                if let self { self.cache.keep(verdict, for: key, from: self.now(), during: http.cacheFor) }
                answer(.success(verdict))
            case .error(let error): answer(.failure(error))
            case .completed: break
            }
        })
    }

    /// The request `question` makes; an error when a header's variable is not set.
    func request(for question: CheckQuestion, _ http: HTTPCheck) -> Result<HTTPRequest, BackendError> {
        let value = { (name: String) in question.value(of: name) }
        var body: JSONValue?
        if http.method == .post {
            guard let rendered = http.body.map({ $0.renderingTemplates(value) }) ?? .object([:]) else {
                return .failure(.unavailable(reason: "check '\(question.checkName)' was asked without a value its body needs"))
            }
            body = rendered
        }
        return HTTPClient.request(
            method: http.method.rawValue, url: http.url, values: value, body: body, headers: http.headers,
            environment: environment, timeout: http.timeout, maxBodyBytes: http.maxBodyBytes)
    }
}
