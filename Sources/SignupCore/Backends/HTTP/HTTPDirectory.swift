import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The application's own server over HTTP, as the GitHubSignup sample checked
/// `https://github.com/<name>`: a GET whose 404 means "available" and 2xx "taken", and a JSON POST
/// that registers. Anything else, a timeout or a transport error is `backend.unavailable`, never a
/// verdict. Disposing a check cancels its request.
public final class HTTPDirectory: UsernameAvailabilityChecking, AccountRegistering {
    public struct Configuration: Sendable {
        /// A URL with `{username}` where the percent-encoded name goes.
        public var availabilityTemplate: String
        public var signupURL: URL
        public var timeout: TimeSpan

        public init(availabilityTemplate: String, signupURL: URL, timeout: TimeSpan = .milliseconds(5000)) {
            self.availabilityTemplate = availabilityTemplate
            self.signupURL = signupURL
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    private let loop: EventLoop
    private let clock: RealTimeScheduler
    private let session: URLSession

    public init(configuration: Configuration, loop: EventLoop) {
        self.configuration = configuration
        self.loop = loop
        clock = RealTimeScheduler(loop: loop)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // The timeout is enforced on the event loop to the millisecond (FoundationNetworking rounds
        // sub-second timeouts down to none); URLSession's own, in whole seconds, is only a backstop.
        sessionConfiguration.timeoutIntervalForRequest = Double(configuration.timeout.milliseconds / 1000 + 2)
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        // A session keeps its tasks, their requests and curl's handles until invalidated.
        session.finishTasksAndInvalidate()
    }

    /// The availability URL for a name; nil if the template does not make a URL.
    public func availabilityURL(for username: String) -> URL? {
        let encoded = username.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? username
        return URL(string: configuration.availabilityTemplate.replacingOccurrences(of: "{username}", with: encoded))
    }

    public func availability(of username: String) -> EventStream<Availability> {
        guard let url = availabilityURL(for: username) else {
            return .fail(BackendError.unavailable(reason: "the availability URL template does not make a URL"))
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        return send(request) { status, _ in
            switch status {
            case 404: return .success(.available)
            case 200..<300: return .success(.taken)
            default: return .failure(.unavailable(reason: "HTTP status \(status)"))
            }
        }
    }

    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        var request = URLRequest(url: configuration.signupURL)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["username": username, "password": password])
        return send(request) { status, body in
            switch status {
            case 200..<300:
                let account = Self.jsonValue(from: body) ?? .object(["username": .string(username)])
                return .success(.registered(account: account))
            case 409:
                return .success(.usernameTaken)
            default:
                return .success(.refused(reason: "HTTP status \(status)", details: ["status": .int(Int64(status))]))
            }
        }
    }

    /// Sends a request and maps its status and body on the event loop; disposal cancels the task.
    private func send<Value>(
        _ request: URLRequest,
        interpret: @escaping (Int, Data) -> Result<Value, BackendError>
    ) -> EventStream<Value> {
        let answers = exchange(request)
        return EventStream { observer in
            answers.subscribe(Observer { event in
                switch event {
                case .next(let answer): InlineWorkRunner.deliver(interpret(answer.status, answer.body), to: observer)
                case .error(let error): observer.onError(error)
                case .completed: break
                }
            })
        }
    }

    /// One HTTP exchange: emits the status and body on the event loop, or fails with a `BackendError`.
    private func exchange(_ request: URLRequest) -> EventStream<HTTPAnswer> {
        let session = self.session
        let loop = self.loop
        let clock = self.clock
        let timeout = configuration.timeout
        return EventStream { observer in
            let pending = PendingDelivery<HTTPAnswer>(observer)
            let handoff = UncheckedTransfer(pending)
            let task = session.dataTask(with: request) { data, response, error in
                let outcome: Result<HTTPAnswer, BackendError>
                if let error {
                    outcome = .failure(Self.backendError(error))
                } else if let http = response as? HTTPURLResponse {
                    outcome = .success(HTTPAnswer(status: http.statusCode, body: data ?? Data()))
                } else {
                    outcome = .failure(.unavailable(reason: "the answer was not HTTP"))
                }
                loop.execute { handoff.value.deliver(outcome) }
            }
            task.resume()
            let timer = clock.schedule(after: timeout) {
                pending.deliver(.failure(.timedOut))
                task.cancel()
            }
            return Disposables.create {
                timer.dispose()
                pending.cancel()
                task.cancel()
            }
        }
    }

    private static func backendError(_ error: any Error) -> BackendError {
        if let urlError = error as? URLError, urlError.code == .timedOut { return .timedOut }
        return .unavailable(reason: error.localizedDescription)
    }

    /// RFC 3986's unreserved characters: everything else in a name is percent-encoded.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func jsonValue(from data: Data) -> JSONValue? {
        guard !data.isEmpty, let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        return jsonValue(fromFoundation: object)
    }

    private static func jsonValue(fromFoundation object: Any) -> JSONValue {
        switch object {
        case let dictionary as [String: Any]:
            return .object(dictionary.mapValues(jsonValue(fromFoundation:)))
        case let array as [Any]:
            return .array(array.map(jsonValue(fromFoundation:)))
        case let text as String:
            return .string(text)
        case let number as NSNumber:
            if type(of: object) == Bool.self || String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            if let integer = Int64(exactly: number.doubleValue), !String(describing: number).contains(".") {
                return .int(integer)
            }
            return .double(number.doubleValue)
        default:
            return .null
        }
    }
}

/// A finished HTTP exchange.
struct HTTPAnswer: Sendable {
    var status: Int
    var body: Data
}
