/// Where a field stands: the four states of the GitHubSignup sample's ValidationResult.
public enum FieldState: String, Hashable, Sendable, CaseIterable {
    case empty
    case validating
    case ok
    case failed
}

/// What a field shows: its state, a stable machine code with parameters, and a message for people.
public struct FieldResult: Hashable, Sendable, CustomStringConvertible {
    public var state: FieldState
    /// A stable identifier such as `username.taken` or `password.tooShort`.
    public var code: String
    /// The values the message is built from, such as `["min": 5]`.
    public var params: [String: JSONValue]
    public var message: String

    public init(state: FieldState, code: String, params: [String: JSONValue] = [:], message: String) {
        self.state = state
        self.code = code
        self.params = params
        self.message = message
    }

    public var isOK: Bool { state == .ok }

    public var description: String {
        let parameters = params.isEmpty
            ? ""
            : " " + params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.templateText)" }.joined(separator: ",")
        return "\(state.rawValue) \(code)\(parameters) \"\(message)\""
    }
}
