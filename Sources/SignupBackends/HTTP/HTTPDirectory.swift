import Foundation
import SignupCore

/// The application's own server over HTTP, as the GitHubSignup sample checked
/// `https://github.com/<name>`: a GET whose 404 means "available" and 2xx "taken", and a JSON POST
/// that registers; a JSON POST that logs in; friends added by POST and updated by PATCH. Anything
/// else, a timeout or a transport error is `backend.unavailable`, never a verdict. Disposing a
/// check cancels its request.
public final class HTTPDirectory: UsernameAvailabilityChecking, AccountRegistering, Authenticating, FriendSaving {
    public struct Configuration: Hashable, Sendable {
        /// A URL with `{username}` where the percent-encoded name goes.
        public var availabilityTemplate: String
        public var signupURL: URL
        /// Where logins are posted; without one, logging in fails as unavailable.
        public var loginURL: URL?
        /// The friend collection: POST adds to it, PATCH `<friendsURL>/<id>` updates a friend.
        public var friendsURL: URL?
        public var timeout: TimeSpan

        public init(
            availabilityTemplate: String, signupURL: URL, loginURL: URL? = nil, friendsURL: URL? = nil,
            timeout: TimeSpan = .milliseconds(5000)
        ) {
            self.availabilityTemplate = availabilityTemplate
            self.signupURL = signupURL
            self.loginURL = loginURL
            self.friendsURL = friendsURL
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    private let client: HTTPClient

    public init(configuration: Configuration, loop: EventLoop) {
        self.configuration = configuration
        client = HTTPClient(loop: loop)
    }

    /// Nil when this machine can speak HTTP (libcurl loads); otherwise why not.
    public static var unavailableReason: String? { HTTPExchange.unavailableReason }

    /// The availability URL for a name; nil if the template does not make a URL.
    public func availabilityURL(for username: String) -> URL? {
        URL(string: configuration.availabilityTemplate.replacingOccurrences(of: "{username}", with: TextTemplate.percentEncoded(username)))
    }

    public func availability(of username: String) -> EventStream<Availability> {
        guard let url = availabilityURL(for: username) else {
            return .fail(BackendError.unavailable(reason: "the availability URL template does not make a URL"))
        }
        let request = HTTPRequest(method: "GET", url: url.absoluteString, timeout: configuration.timeout)
        return send(request) { status, _ in
            switch status {
            case 404: return .success(.available)
            case 200..<300: return .success(.taken)
            default: return .failure(.unavailable(reason: "HTTP status \(status)"))
            }
        }
    }

    public func register(username: String, password: String) -> EventStream<RegistrationOutcome> {
        let request = jsonRequest("POST", configuration.signupURL, ["username": username, "password": password])
        return send(request) { status, body in
            switch status {
            case 200..<300:
                let account = HTTPClient.jsonValue(from: body) ?? .object(["username": .string(username)])
                return .success(.registered(account: account))
            case 409:
                return .success(.usernameTaken)
            default:
                return .success(.refused(reason: "HTTP status \(status)", details: ["status": .int(Int64(status))]))
            }
        }
    }

    /// 2xx with `{"token": "…"}` logs in; 401 and 403 are wrong credentials; 429 is rate limiting.
    public func logIn(username: String, password: String) -> EventStream<LoginOutcome> {
        guard let url = configuration.loginURL else {
            return .fail(BackendError.unavailable(reason: "no login URL is configured (--login-url)"))
        }
        let request = jsonRequest("POST", url, ["username": username, "password": password])
        return send(request) { status, body in
            switch status {
            case 200..<300:
                guard case .object(let members)? = HTTPClient.jsonValue(from: body), case .string(let token)? = members["token"] else {
                    return .failure(.unavailable(reason: "the login answer has no \"token\" string"))
                }
                return .success(.loggedIn(token: token))
            case 401, 403: return .success(.wrongCredentials)
            case 429: return .success(.rateLimited)
            default: return .failure(.unavailable(reason: "HTTP status \(status)"))
            }
        }
    }

    /// POSTs the friend to the collection; a 2xx answer carries the new friend's `id`.
    public func add(_ friend: Friend) -> EventStream<FriendSaveOutcome> {
        guard let url = configuration.friendsURL else { return Self.noFriendsURL }
        return send(jsonRequest("POST", url, Self.fields(of: friend))) { status, body in
            Self.saveOutcome(status: status, body: body, id: nil)
        }
    }

    /// PATCHes `<friendsURL>/<id>` with the friend's details.
    public func update(_ id: String, to friend: Friend) -> EventStream<FriendSaveOutcome> {
        guard let collection = configuration.friendsURL else { return Self.noFriendsURL }
        var base = collection.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/" + TextTemplate.percentEncoded(id)) else {
            return .fail(BackendError.unavailable(reason: "the friends URL does not make a URL for id '\(id)'"))
        }
        return send(jsonRequest("PATCH", url, Self.fields(of: friend))) { status, body in
            Self.saveOutcome(status: status, body: body, id: id)
        }
    }

    private static var noFriendsURL: EventStream<FriendSaveOutcome> {
        .fail(BackendError.unavailable(reason: "no friends URL is configured (--friends-url)"))
    }

    private static func fields(of friend: Friend) -> [String: String] {
        ["firstName": friend.firstName, "lastName": friend.lastName, "phone": friend.phone]
    }

    private static func saveOutcome(status: Int, body: [UInt8], id: String?) -> Result<FriendSaveOutcome, BackendError> {
        switch status {
        case 200..<300:
            var answered: String?
            if case .object(let members)? = HTTPClient.jsonValue(from: body) {
                switch members["id"] {
                case .string(let text)?: answered = text
                case .int(let number)?: answered = String(number)
                default: break
                }
            }
            guard let savedID = answered ?? id else {
                return .failure(.unavailable(reason: "the answer to adding a friend has no \"id\""))
            }
            return .success(.saved(id: savedID))
        case 401, 403: return .success(.unauthorised)
        case 404: return .success(.notFound)
        case 409: return .success(.conflict)
        default: return .failure(.unavailable(reason: "HTTP status \(status)"))
        }
    }


    private func jsonRequest(_ method: String, _ url: URL, _ body: [String: String]) -> HTTPRequest {
        let bytes = HTTPClient.encoded(.object(body.mapValues(JSONValue.string)))
        return HTTPRequest(method: method, url: url.absoluteString, contentType: "application/json", body: bytes, timeout: configuration.timeout)
    }

    /// Sends a request and maps its status and body on the event loop; disposal cancels the exchange.
    private func send<Value>(
        _ request: HTTPRequest,
        interpret: @escaping (Int, [UInt8]) -> Result<Value, BackendError>
    ) -> EventStream<Value> {
        let answers = client.exchange(request)
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
}
