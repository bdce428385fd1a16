/// The backends a form pipeline talks to. One object may play several roles.
public struct FormServices {
    public var availability: any UsernameAvailabilityChecking {
        didSet { checks = Self.checks(askedOf: availability) }
    }
    public var registration: any AccountRegistering
    /// Checks logins; nil where the backend has no login (a login then fails as unavailable).
    public var authentication: (any Authenticating)?
    /// Keeps friends; nil where the backend has none (saving then fails as unavailable).
    public var friends: (any FriendSaving)?
    /// Shared by every form of a process; nil means logins are never rate limited.
    public var loginLimiter: LoginRateLimiter?
    /// Bound the checks asked whose kind counts against budgets (`CheckKind.countsAgainstBudgets`,
    /// read once into `SharedRemoteCheck`): the client's, then the store's as this process counts
    /// it; nil for none.
    public var checkBudgets: CheckBudgets?
    /// Whose budget this session's checks spend: the client's key (`CheckBudgets`).
    public var clientKey = "stdio"

    public init(
        availability: any UsernameAvailabilityChecking, registration: any AccountRegistering,
        authentication: (any Authenticating)? = nil, friends: (any FriendSaving)? = nil,
        loginLimiter: LoginRateLimiter? = nil
    ) {
        self.friends = friends
        self.availability = availability
        checks = Self.checks(askedOf: availability)
        self.registration = registration
        self.authentication = authentication
        self.loginLimiter = loginLimiter
    }

    /// Every role played by one directory; what it does not answer of the calls forms declare, `http`
    /// checks and submissions go to `http` and `submissions`.
    public init(
        directory: some UsernameAvailabilityChecking & AccountRegistering & Authenticating & FriendSaving,
        http: (any RemoteChecking)? = nil, submissions: (any SubmissionSending)? = nil, loginLimiter: LoginRateLimiter? = nil
    ) {
        self.init(
            availability: http == nil && submissions == nil ? directory : DeclaredCalls(directory: directory, http: http, submissions: submissions),
            registration: directory, authentication: directory, friends: directory, loginLimiter: loginLimiter)
    }

    /// Where every remote check a field declares is asked: the availability role itself when it
    /// answers checks (`DeclaredCalls`), otherwise a router over it. Found once, when the role is
    /// set, rather than cast (and the router made) at every check asked.
    public private(set) var checks: any RemoteChecking

    private static func checks(askedOf availability: any UsernameAvailabilityChecking) -> any RemoteChecking {
        (availability as? any RemoteChecking) ?? DeclaredCalls(directory: availability)
    }

    /// Counts an availability check against the client's budget and the store's; how long to
    /// wait when one is spent.
    func spendCheckBudgets() -> CheckBudget.Exceeded? {
        checkBudgets?.spend(for: clientKey)
    }

    /// Whether this session's client has asked few checks lately (`CheckBudgets.isQuiet`); true
    /// without budgets.
    var isQuietClient: Bool { checkBudgets?.isQuiet(clientKey) ?? true }

    /// Where `http` submissions are sent, found as `checks` is.
    public var submissions: any SubmissionSending {
        (availability as? any SubmissionSending) ?? DeclaredCalls(directory: availability)
    }
}
