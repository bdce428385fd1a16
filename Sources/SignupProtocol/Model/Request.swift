/// A request id exactly as the client wrote it.
package enum RequestID: Equatable, Sendable {
    case string(String)
    /// The number's original text, echoed unchanged (integers past 2^53, fractions, exponents).
    case number(String)
    case null

    package func write(_ writer: inout JSONWriter) {
        switch self {
        case .string(let text): writer.string(text)
        case .number(let text): writer.raw(text)
        case .null: writer.null()
        }
    }
}

/// A structurally valid JSON-RPC 2.0 request or notification.
package struct Request {
    package var method: String
    package var params: JSON?
    /// nil for a notification, which is never answered.
    package var id: RequestID?

    package var isNotification: Bool { id == nil }

    /// Checks a message against JSON-RPC 2.0. On failure, returns the error with the id to answer
    /// with: the message's own id when it is a valid one, otherwise null.
    package static func validate(_ message: JSON) -> Result<Request, InvalidMessage> {
        guard case .object(let members) = message else {
            return .failure(InvalidMessage(error: .invalidRequest("a message must be a JSON object, not \(message.typeName)"), id: .null))
        }
        var id: RequestID?
        var idProblem: String?
        if let idValue = members.first(where: { $0.key == "id" })?.value {
            switch idValue {
            case .string(let text): id = .string(text)
            case .number(let text): id = .number(text)
            case .null: id = .null
            default: idProblem = "id must be a string, a number or null, not \(idValue.typeName)"
            }
        }
        func fail(_ reason: String) -> Result<Request, InvalidMessage> {
            .failure(InvalidMessage(error: .invalidRequest(reason), id: idProblem == nil ? (id ?? .null) : .null))
        }
        if let idProblem { return fail(idProblem) }

        var version: JSON?
        var method: JSON?
        var params: JSON?
        var sawParams = false
        var sawID = false
        for member in members {
            let isRepeat: Bool
            switch member.key {
            case "jsonrpc": isRepeat = version != nil; version = member.value
            case "method": isRepeat = method != nil; method = member.value
            case "params":
                isRepeat = sawParams
                sawParams = true
                // `null` is no params at all, as several client libraries send for shutdown and exit.
                params = member.value == .null ? nil : member.value
            case "id": isRepeat = sawID; sawID = true
            default: return fail("unknown member '\(member.key)' (members are jsonrpc, id, method and params)")
            }
            if isRepeat { return fail("member '\(member.key)' appears more than once") }
        }
        guard version == .string("2.0") else { return fail("jsonrpc must be \"2.0\"") }
        guard let method else { return fail("method is missing") }
        guard case .string(let name) = method else { return fail("method must be a string, not \(method.typeName)") }
        if let params {
            switch params {
            case .object, .array: break
            default: return fail("params must be an object, an array or null, not \(params.typeName)")
            }
        }
        return .success(Request(method: name, params: params, id: id))
    }
}

/// A message that is not a valid request, and the id its error response carries.
package struct InvalidMessage: Error {
    package var error: RPCError
    package var id: RequestID
}
