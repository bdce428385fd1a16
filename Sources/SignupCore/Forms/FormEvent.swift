/// A field's result together with where it belongs.
public struct FieldUpdate: Hashable, Sendable {
    public var field: String
    public var result: FieldResult
    /// The form's edit version of the input this result judges; never goes down for one field.
    public var version: Int

    public init(field: String, result: FieldResult, version: Int) {
        self.field = field
        self.result = result
        self.version = version
    }
}

/// Why a submission failed, in the same code-params-message shape as field results.
public struct SubmissionFailure: Hashable, Sendable {
    public var code: String
    public var params: [String: JSONValue]
    public var message: String

    public init(_ message: Message, params: [String: JSONValue] = [:]) {
        code = message.code
        self.params = params
        self.message = message.render(params)
    }

    public init(code: String, params: [String: JSONValue], message: String) {
        self.code = code
        self.params = params
        self.message = message
    }
}

/// Where a form's submission stands.
public enum SubmissionState: Hashable, Sendable {
    case idle
    case submitting
    /// Done; `account` describes the result and never holds a secret value.
    case succeeded(account: JSONValue)
    /// Done without success; the form may be submitted again.
    case failed(SubmissionFailure)

    public var name: String {
        switch self {
        case .idle: return "idle"
        case .submitting: return "submitting"
        case .succeeded: return "succeeded"
        case .failed: return "failed"
        }
    }
}

/// What a form tells its views, in a fixed order for each change: field results in definition
/// order, then the submission state, then whether submit is enabled.
public enum FormEvent: Hashable, Sendable {
    case fieldChanged(FieldUpdate)
    /// A field shown or hidden, or made required or optional, by the form's conditions. It comes
    /// before the field's result, which is judged afresh when the field is shown (a hidden
    /// field's result is not sent).
    indirect case presenceChanged(PresenceUpdate)
    // Indirect: rare, and its payload is large; boxed, it leaves a field event cheap to copy.
    indirect case submissionChanged(SubmissionState)
    case submitEnabledChanged(Bool)
}

/// The whole of a form's visible state, for a view that attaches late.
public struct FormSnapshot: Hashable, Sendable {
    public var fields: [FieldUpdate]
    public var submitEnabled: Bool
    public var submission: SubmissionState
}
