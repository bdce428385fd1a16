/// A method a client calls: its params as typed members, read from the request, and the result
/// it is answered with. Registered once, in `Messages.requests`.
package protocol RequestType: Sendable {
    associatedtype Response: ResponseType

    /// The method's name on the wire.
    static var method: String { get }
    /// What the protocol's documents say of it: among it, its params, in the order protocol.md
    /// lists them; any other is refused.
    static var documentation: MethodDocumentation { get }
    /// How params it does not take are met.
    static var unknownParameters: UnknownParameters { get }
    /// Whether it is still served once `shutdown` has been received (`exit` is).
    static var isServedAfterShutdown: Bool { get }
    /// What its params carry, by name, for the trace and the recording: a param not named here
    /// is masked whenever the message may hold a secret.
    static var parameterRoles: [String: ParameterRole] { get }

    /// Reads the params, which name only those its documentation gives, each once.
    init(_ params: Params) throws(RPCError)
}

/// How a method meets params it does not take.
package enum UnknownParameters: Sendable {
    /// Refused with `-32602`, so a misspelt name is reported instead of silently ignored.
    case refused
    /// Skipped, as LSP clients send members of their own (`initialize`, `initialized`).
    case skipped
    /// The params are not read at all, whatever their shape (`exit`).
    case ignored
}

/// What a param carries, as the trace and the recording need to know it.
package enum ParameterRole: Sendable {
    /// What the client says of itself (`clientInfo`, `capabilities`): holds no secret by its
    /// type, so shown whole, whatever it holds.
    case shown
    /// A name of the protocol's own (a form's id, a kind, a field, a locale): shown when a string.
    case identifier
    /// A time or a count (`at`, `by`, a process id): shown when a number.
    case number
    /// The value of the field that the `field` param names: a secret when that field is.
    case fieldValue
    /// Values by field name in the form the params address (or, with no form, of their `kind`,
    /// `signup` when none is named): each a secret when its field is.
    case fieldValues(ofOpenForm: Bool)
    /// A record to update (`form.open`'s `record`): its `id`, an identifier, and its other
    /// members as values by field, as `fieldValues(ofOpenForm: true)`.
    case record
}

extension RequestType {
    package static var unknownParameters: UnknownParameters { .refused }
    package static var isServedAfterShutdown: Bool { false }
    package static var parameterRoles: [String: ParameterRole] { [:] }

    /// The request's params as this method reads them: only its own names, each once.
    package static func params(_ params: JSON?) throws(RPCError) -> Params {
        switch unknownParameters {
        case .refused: return try Params(params, allowed: documentation.params)
        case .skipped: return try Params(params, allowed: documentation.params, ignoringOthers: true)
        case .ignored: return Params()
        }
    }
}

/// A method's result, written as the `result` member of its response.
package protocol ResponseType {
    func write(to result: inout JSONWriter)
}

/// The result `null`: the method is done and has nothing more to say.
package struct NullResponse: ResponseType, Sendable {
    package init() {}

    package func write(to result: inout JSONWriter) {
        result.null()
    }
}
