/// A submission to an HTTP API the form declares: the product's own registration endpoint. The
/// URL's placeholders name fields (percent-encoded); the body is a template, or every field by
/// name when it has none. A 2xx answer succeeds with its JSON body as the result; a 4xx answer's
/// field errors go on the fields (`ReportedIssues`); anything else is `unavailable`.
public struct HTTPSubmission: Hashable, Sendable {
    public enum Method: String, Hashable, Sendable, CaseIterable {
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
    }

    public var method: Method
    public var url: TextTemplate
    /// Sent as `application/json`, every string a template; nil sends every field by name.
    public var body: JSONValue?
    public var headers: [HTTPCheck.Header]
    public var timeout: TimeSpan
    /// Members of the answer's body never shown: written as `[secret]` in the result, at any depth.
    public var secretMembers: Set<String>
    /// An answer with a longer body is unavailable.
    public var maxBodyBytes: Int

    public static let defaultTimeout = TimeSpan.milliseconds(10_000)
    public static let defaultMaxBodyBytes = 256 * 1024

    public init(
        method: Method = .post, url: TextTemplate, body: JSONValue? = nil, headers: [HTTPCheck.Header] = [],
        timeout: TimeSpan = HTTPSubmission.defaultTimeout, secretMembers: Set<String> = [],
        maxBodyBytes: Int = HTTPSubmission.defaultMaxBodyBytes
    ) {
        self.method = method
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.secretMembers = secretMembers
        self.maxBodyBytes = maxBodyBytes
    }

    /// The fields the URL and the body name.
    public var placeholders: [String] { url.placeholders(and: body) }

    /// What a masked member of the result reads.
    public static let mask: JSONValue = "[secret]"

    /// `result` with every member named in `secretMembers` masked, at any depth, and every
    /// occurrence of each of `secrets` (the secret fields' values) in its strings.
    public func masked(_ result: JSONValue, hiding secrets: [String] = []) -> JSONValue {
        switch result {
        case .object(let members):
            var masked: [String: JSONValue] = [:]
            for (name, value) in members {
                masked[name] = secretMembers.contains(name) ? Self.mask : self.masked(value, hiding: secrets)
            }
            return .object(masked)
        case .array(let items): return .array(items.map { masked($0, hiding: secrets) })
        case .string(let text) where secrets.contains(where: text.contains):
            var hidden = text
            for secret in secrets { hidden = hidden.replacingOccurrences(of: secret, with: "[secret]") }
            return .string(hidden)
        default: return result
        }
    }
}
