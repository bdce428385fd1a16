/// A password checked against the passwords known from breaches, with the Pwned Passwords range
/// API and k-anonymity: only the first five hex digits of the password's SHA-1 leave the process,
/// with padding asked for, so the answer's size tells nothing either. The count of breaches is the
/// rejection's `count` param.
public struct BreachedPasswordCheck: Hashable, Sendable {
    /// Where `range/{prefix}` is asked: Pwned Passwords itself, a private mirror, or a test's server.
    public var baseURL: String
    /// Rejected when the password was seen at least this many times.
    public var threshold: Int
    public var timeout: TimeSpan
    /// What an unreachable, slow or failing service gives; `pass` by default, as Kratos does.
    public var whenUnavailable: HTTPCheck.WhenUnavailable
    /// How long a range's answer is kept, for every password of that prefix.
    public var cacheFor: TimeSpan

    public static let pwnedPasswords = "https://api.pwnedpasswords.com"

    public init(
        baseURL: String = BreachedPasswordCheck.pwnedPasswords, threshold: Int = 1, timeout: TimeSpan = .milliseconds(3000),
        whenUnavailable: HTTPCheck.WhenUnavailable = .pass, cacheFor: TimeSpan = .seconds(3600)
    ) {
        self.baseURL = baseURL
        self.threshold = threshold
        self.timeout = timeout
        self.whenUnavailable = whenUnavailable
        self.cacheFor = cacheFor
    }
}

/// Asked over the network with k-anonymity; its answer is a count, never the value.
extension BreachedPasswordCheck: CheckKind {
    public static let name = "breachedPassword"
    public var answerer: CheckAnswerer { .network }
    public var countsAgainstBudgets: Bool { false }
    public var passesWhenUnavailable: Bool { whenUnavailable == .pass }
    public var mayEchoItsValue: Bool { false }
    public var claimsTheValue: Bool { false }
}
