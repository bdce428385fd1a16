/// Every error the server answers with: JSON-RPC's own codes and the server-defined ones in
/// -32000…-32099, each listed in protocol.md.
package enum RPCError: Error, Equatable {
    case parseError(JSONParseError)
    case invalidRequest(String)
    case methodNotFound(String)
    /// `member` is a path such as `params.value`.
    case invalidParams(member: String, problem: String)
    case internalError(String)
    case clockNotVirtual(method: String)
    case timeWentBackwards(now: Int64, requested: Int64)
    case shuttingDown
    case alreadyInitialized
    case unknownForm(String)
    case formIDInUse(String)
    case unknownFormKind(String, known: [String])
    case unknownField(String, kind: String, fields: [String])
    case lineTooLong(limit: Int)
    /// A value over a limit in `unit`s: `characters` or `bytes`.
    case valueTooLong(field: String, limit: Int, unit: String)
    case tooManyForms(limit: Int)
    case batchTooLarge(limit: Int)

    package var code: Int {
        switch self {
        case .parseError: return -32700
        case .invalidRequest: return -32600
        case .methodNotFound: return -32601
        case .invalidParams: return -32602
        case .internalError: return -32603
        case .clockNotVirtual: return -32001
        case .timeWentBackwards: return -32002
        case .shuttingDown: return -32003
        case .alreadyInitialized: return -32004
        case .unknownForm: return -32010
        case .formIDInUse: return -32011
        case .unknownFormKind: return -32012
        case .unknownField: return -32013
        case .lineTooLong: return -32020
        case .valueTooLong: return -32021
        case .tooManyForms: return -32022
        case .batchTooLarge: return -32023
        }
    }

    package var message: String {
        switch self {
        case .parseError(let error): return "Parse error: \(error.description)"
        case .invalidRequest(let reason): return "Invalid request: \(reason)"
        case .methodNotFound(let method): return "Method not found: \(method)"
        case .invalidParams(let member, let problem): return "Invalid params: \(member) \(problem)"
        case .internalError(let reason): return "Internal error: \(reason)"
        case .clockNotVirtual(let method): return "\(method) needs the virtual clock; start the server with --clock virtual"
        case .timeWentBackwards(let now, let requested):
            return "Virtual time only moves forward: it is \(now) ms, and \(requested) ms was asked for"
        case .shuttingDown: return "The server is shutting down; only exit is accepted"
        case .alreadyInitialized: return "initialize may be sent only once"
        case .unknownForm(let id): return "No open form has the id '\(id)'"
        case .formIDInUse(let id): return "A form with the id '\(id)' is already open; close it or choose another id"
        case .unknownFormKind(let kind, let known):
            return "Unknown form kind '\(kind)'; known kinds: \(known.joined(separator: ", "))"
        case .unknownField(let field, let kind, let fields):
            return "Form kind '\(kind)' has no field '\(field)'; its fields: \(fields.joined(separator: ", "))"
        case .lineTooLong(let limit): return "Line longer than \(limit) bytes; it was skipped"
        case .valueTooLong(let field, let limit, let unit): return "The value of '\(field)' is longer than \(limit) \(unit)"
        case .tooManyForms(let limit): return "At most \(limit) forms may be open at once; close one first"
        case .batchTooLarge(let limit): return "A batch may hold at most \(limit) messages"
        }
    }

    /// The structured `data` member, or nil when the message says everything.
    func writeData(_ writer: inout JSONWriter) -> Bool {
        switch self {
        case .parseError(let error):
            writer.key("data")
            writer.object { $0.key("offset"); $0.int(error.offset) }
        case .methodNotFound(let method):
            writer.key("data")
            writer.object { $0.key("method"); $0.string(method) }
        case .invalidParams(let member, let problem):
            writer.key("data")
            writer.object {
                $0.key("member"); $0.string(member)
                $0.key("problem"); $0.string(problem)
            }
        case .timeWentBackwards(let now, let requested):
            writer.key("data")
            writer.object {
                $0.key("now"); $0.int(now)
                $0.key("requested"); $0.int(requested)
            }
        case .unknownForm(let id), .formIDInUse(let id):
            writer.key("data")
            writer.object { $0.key("form"); $0.string(id) }
        case .unknownFormKind(let kind, let known):
            writer.key("data")
            writer.object {
                $0.key("kind"); $0.string(kind)
                $0.key("known"); $0.array { list in known.forEach { list.string($0) } }
            }
        case .unknownField(let field, let kind, let fields):
            writer.key("data")
            writer.object {
                $0.key("field"); $0.string(field)
                $0.key("kind"); $0.string(kind)
                $0.key("fields"); $0.array { list in fields.forEach { list.string($0) } }
            }
        case .lineTooLong(let limit), .tooManyForms(let limit), .batchTooLarge(let limit):
            writer.key("data")
            writer.object { $0.key("limit"); $0.int(limit) }
        case .valueTooLong(let field, let limit, let unit):
            writer.key("data")
            writer.object {
                $0.key("field"); $0.string(field)
                $0.key("limit"); $0.int(limit)
                $0.key("unit"); $0.string(unit)
            }
        case .invalidRequest, .internalError, .clockNotVirtual, .shuttingDown, .alreadyInitialized:
            return false
        }
        return true
    }
}
