/// A remote check asked of an HTTP API the form declares: the request to send, and how to read
/// what comes back. Placeholders in the URL (percent-encoded) and in the body's strings are
/// `{value}`, the checked value, and `{field}`, another field's value.
public struct HTTPCheck: Hashable, Sendable {
    public enum Method: String, Hashable, Sendable, CaseIterable {
        case get = "GET"
        case post = "POST"
    }

    /// A request header whose value is read from an environment variable when the request is made:
    /// a form file names the variable, never the secret.
    public struct Header: Hashable, Sendable {
        public var name: String
        public var environmentVariable: String
        /// Sent before the variable's value, such as `Bearer `.
        public var prefix: String

        public init(name: String, environmentVariable: String, prefix: String = "") {
            self.name = name
            self.environmentVariable = environmentVariable
            self.prefix = prefix
        }
    }

    /// What an unreachable, slow, failing (5xx), unreadable or oversized answer gives.
    public enum WhenUnavailable: String, Hashable, Sendable, CaseIterable {
        /// The field shows the check's `unavailable` result and stays failed (fail-closed).
        case unavailable
        /// The check counts as passed (fail-open).
        case pass
    }

    public var method: Method
    public var url: TextTemplate
    /// Sent as `application/json` with a `POST`: every string in it is a template.
    public var body: JSONValue?
    public var headers: [Header]
    public var timeout: TimeSpan
    public var answer: CheckAnswerReading
    public var whenUnavailable: WhenUnavailable
    /// How long a verdict is kept for the same question; zero keeps none.
    public var cacheFor: TimeSpan
    /// An answer with a longer body is unavailable.
    public var maxBodyBytes: Int

    public static let defaultTimeout = TimeSpan.milliseconds(5000)
    public static let defaultMaxBodyBytes = 64 * 1024

    public init(
        method: Method = .get, url: TextTemplate, body: JSONValue? = nil, headers: [Header] = [],
        timeout: TimeSpan = HTTPCheck.defaultTimeout, answer: CheckAnswerReading = .body,
        whenUnavailable: WhenUnavailable = .unavailable, cacheFor: TimeSpan = .zero,
        maxBodyBytes: Int = HTTPCheck.defaultMaxBodyBytes
    ) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.answer = answer
        self.whenUnavailable = whenUnavailable
        self.cacheFor = cacheFor
        self.maxBodyBytes = maxBodyBytes
    }

    /// Every placeholder the URL and the body use, in order of first use.
    public var placeholders: [String] { url.placeholders(and: body) }

    /// The other fields the request sends.
    public var reads: [String] { placeholders.filter { $0 != "value" } }
}

/// A request to the product's own API: not counted against check budgets (the API keeps its own),
/// passed when unreachable if the form says so, and its answer may echo the value.
extension HTTPCheck: CheckKind {
    public static let name = "http"
    public var answerer: CheckAnswerer { .network }
    public var countsAgainstBudgets: Bool { false }
    public var passesWhenUnavailable: Bool { whenUnavailable == .pass }
    public var mayEchoItsValue: Bool { true }
    public var claimsTheValue: Bool { false }
}
