/// What an `http` submission sends: the form's kind (which names it in scripts and recordings),
/// its declaration, and every field's value by name, as the field's rules read it.
public struct SubmissionRequest: Hashable, Sendable {
    public var kind: String
    public var submission: HTTPSubmission
    public var fields: [String: String]

    public init(kind: String, submission: HTTPSubmission, fields: [String: String]) {
        self.kind = kind
        self.submission = submission
        self.fields = fields
    }
}

/// What the API answered, when it answered with a verdict: a 2xx with its JSON body (`{}` when it
/// had none), or a 4xx with its status and JSON body (nil when it had none or it was no JSON).
public enum SubmissionAnswer: Hashable, Sendable {
    case accepted(JSONValue)
    case refused(status: Int, body: JSONValue?)
}

/// Sends `http` submissions. Any other answer (another status, a timeout, a transport error)
/// fails the stream with a `BackendError`.
public protocol SubmissionSending: AnyObject {
    /// A cold stream: subscribing sends, disposing abandons; one answer, on the core's scheduler.
    func send(_ request: SubmissionRequest) -> EventStream<SubmissionAnswer>
}
