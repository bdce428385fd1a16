/// How a registration attempt ended, when the backend answered at all.
public enum RegistrationOutcome: Hashable, Sendable {
    /// The account exists now; `account` describes it and never holds the password.
    case registered(account: JSONValue)
    /// Someone holds the name already (for example, they won a race since the availability check).
    case usernameTaken
    /// Another account of this form kind uses this value in the field, which a `unique` check
    /// keeps unique (for example, it won a race since the check).
    case fieldTaken(field: String)
    /// The backend declined; the user may try again. `details` become the failure's params
    /// (for example the HTTP status).
    case refused(reason: String, details: [String: JSONValue] = [:])
}

/// What a registration keeps with the account besides its name and password: the form's other
/// fields that are not secret, and the values it claims for the fields `unique` checks keep unique.
public struct AccountFields: Hashable, Sendable {
    /// The form kind the account registers with: fields are unique within it.
    public var kind: String
    /// Each non-secret field's value, as its rules read it, by field name.
    public var values: [String: String]
    /// The fields kept unique, each with its value as compared (`fold`).
    public var claims: [String: String]

    public init(kind: String, values: [String: String] = [:], claims: [String: String] = [:]) {
        self.kind = kind
        self.values = values
        self.claims = claims
    }

    /// A value as uniqueness compares it: lower-cased (Unicode's mapping), after the field's normalisation.
    public static func fold(_ value: String) -> String { value.lowercased() }
}

/// Creates accounts.
public protocol AccountRegistering: AnyObject {
    /// A cold stream: subscribing sends the registration, which then runs to its end. It emits one
    /// outcome and completes, or fails with a `BackendError`, always on the core's scheduler.
    func register(username: String, password: String) -> EventStream<RegistrationOutcome>

    /// The same, keeping `fields` with the account and claiming its unique values in the same
    /// step, so that of two registrations claiming one value exactly one succeeds. By default a
    /// registration that claims nothing is the plain one, and one that claims is unavailable.
    func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome>
}

extension AccountRegistering {
    public func register(username: String, password: String, fields: AccountFields) -> EventStream<RegistrationOutcome> {
        guard fields.claims.isEmpty else {
            return .fail(BackendError.unavailable(reason: "this backend cannot keep fields unique"))
        }
        return register(username: username, password: password)
    }
}
