/// A method a client calls: its params as typed members, read from the request, and the result
/// it is answered with. Registered once, in `Messages.requests`.
package protocol RequestType: Sendable {
    associatedtype Response: ResponseType

    /// The method's name on the wire.
    static var method: String { get }
    /// The names of its params, in the order protocol.md lists them; any other is refused.
    static var parameters: [String] { get }
    /// How params it does not take are met.
    static var unknownParameters: UnknownParameters { get }
    /// Whether it is still served once `shutdown` has been received (`exit` is).
    static var isServedAfterShutdown: Bool { get }

    /// Reads the params, which name only `parameters`, each once.
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

extension RequestType {
    package static var unknownParameters: UnknownParameters { .refused }
    package static var isServedAfterShutdown: Bool { false }

    /// The request's params as this method reads them: only its own names, each once.
    package static func params(_ params: JSON?) throws(RPCError) -> Params {
        switch unknownParameters {
        case .refused: return try Params(params, allowed: parameters)
        case .skipped: return try Params(params, allowed: parameters, ignoringOthers: true)
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
