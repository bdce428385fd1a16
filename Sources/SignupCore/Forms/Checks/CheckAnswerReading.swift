/// What a remote check's backend said of a value.
public enum CheckVerdict: Hashable, Sendable {
    case passed
    /// Rejected, with the backend's own code, message and params when it gave them (the issue's
    /// `field` is nil: it is about the value checked); nil shows the check's own message.
    case rejected(ReportedIssue?)
    /// Rejected with the check's own message, filled in with these params (a count of breaches).
    case rejectedWith(params: [String: JSONValue])
}

extension CheckVerdict {
    /// The username check's verdict: a free name passes, a taken one is rejected.
    public init(_ availability: Availability) {
        self = availability == .available ? .passed : .rejected(nil)
    }
}

/// How an `http` check reads its backend's answer. An answer read as neither verdict leaves the
/// check `unavailable`, as an unreachable backend does.
public enum CheckAnswerReading: Hashable, Sendable {
    /// By status alone.
    case status(passed: Set<Int>, rejected: Set<Int>)
    /// From the JSON body of a 2xx answer, or of an answer with one of `verdictStatuses` (APIs
    /// that answer a rejected value with 404 or 422 and a verdict): `{"valid": true}` passes;
    /// `{"valid": false}` rejects, with the body's `code` and `message` (strings, both or
    /// neither) and `params` (an object).
    case fromBody(verdictStatuses: Set<Int>)

    /// From the JSON body of a 2xx answer alone.
    public static var body: CheckAnswerReading { .fromBody(verdictStatuses: []) }

    /// The verdict in an answer of `status` with `body` (nil when the body is not JSON), or nil.
    public func verdict(status: Int, body: JSONValue?) -> CheckVerdict? {
        switch self {
        case .status(let passed, let rejected):
            if passed.contains(status) { return .passed }
            return rejected.contains(status) ? .rejected(nil) : nil
        case .fromBody(let verdictStatuses):
            guard (200..<300).contains(status) || verdictStatuses.contains(status), case .object(let members)? = body, case .bool(let valid)? = members["valid"]
            else { return nil }
            if valid { return .passed }
            guard case .string(let code)? = members["code"], case .string(let message)? = members["message"] else {
                return .rejected(nil)
            }
            var params: [String: JSONValue] = [:]
            if case .object(let given)? = members["params"] { params = given }
            return .rejected(ReportedIssue(field: nil, code: code, message: message, params: params))
        }
    }
}
