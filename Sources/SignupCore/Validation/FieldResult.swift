/// Where a field stands: the four states of the GitHubSignup sample's ValidationResult.
public enum FieldState: String, Hashable, Sendable, CaseIterable {
    case empty
    case validating
    case ok
    case failed
}

/// What a field shows: its state, a stable machine code with parameters, and a message for people.
///
/// The texts sit behind one shared reference: results are rendered once per form kind and locale
/// and copied several times per keystroke, and each copy then costs one reference count, not three.
public struct FieldResult: Hashable, Sendable, CustomStringConvertible {
    public var state: FieldState
    // Usable from inline code for `textsIdentity` only, which a client reads on every event.
    @usableFromInline var texts: Texts

    @usableFromInline final class Texts: Sendable {
        let code: String
        let params: [String: JSONValue]
        let message: String

        init(code: String, params: [String: JSONValue], message: String) {
            self.code = code
            self.params = params
            self.message = message
        }
    }

    public init(state: FieldState, code: String, params: [String: JSONValue] = [:], message: String) {
        self.state = state
        texts = Texts(code: code, params: params, message: message)
    }

    /// A stable identifier such as `username.taken` or `password.tooShort`.
    public var code: String {
        get { texts.code }
        set { texts = Texts(code: newValue, params: params, message: message) }
    }

    /// The values the message is built from, such as `["min": 5]`.
    public var params: [String: JSONValue] {
        get { texts.params }
        set { texts = Texts(code: code, params: newValue, message: message) }
    }

    public var message: String {
        get { texts.message }
        set { texts = Texts(code: code, params: params, message: newValue) }
    }

    public var isOK: Bool { state == .ok }

    /// Identifies the result's code, params and message: the same for copies of one result, and
    /// shared with no other result while either is alive. For a cache of renderings, which keeps
    /// a copy of the result it rendered so that the identity stays its own.
    @inlinable public var textsIdentity: ObjectIdentifier { ObjectIdentifier(texts) }

    public static func == (lhs: FieldResult, rhs: FieldResult) -> Bool {
        guard lhs.state == rhs.state else { return false }
        return lhs.texts === rhs.texts
            || (lhs.code == rhs.code && lhs.params == rhs.params && lhs.message == rhs.message)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(code)
        hasher.combine(params)
        hasher.combine(message)
    }

    public var description: String {
        let parameters = params.isEmpty
            ? ""
            : " " + params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.templateText)" }.joined(separator: ",")
        return "\(state.rawValue) \(code)\(parameters) \"\(message)\""
    }
}
