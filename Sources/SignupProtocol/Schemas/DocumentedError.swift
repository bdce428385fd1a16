/// An error a method may answer with, as the OpenRPC document lists it: `RPCError`'s code, a
/// short message and the shape of its `data`.
package struct DocumentedError: Sendable {
    package var code: Int
    package var message: String
    package var data: JSON?

    package init(_ error: RPCError, _ message: String, data: JSON? = nil) {
        self.code = error.code
        self.message = message
        self.data = data
    }
}

extension DocumentedError {
    package static let alreadyInitialized = DocumentedError(.alreadyInitialized, "initialize may be sent only once")
    package static let invalidParams = DocumentedError(.invalidParams(member: "", problem: ""), "Invalid params", data: .schema(##"{"type": "object", "properties": {"member": {"type": "string"}, "problem": {"type": "string"}}, "required": ["member", "problem"], "additionalProperties": false}"##))
    package static let shuttingDown = DocumentedError(.shuttingDown, "The server is shutting down")
    package static let formIDInUse = DocumentedError(.formIDInUse(""), "Form id already open", data: .schema(##"{"type": "object", "properties": {"form": {"type": "string"}}, "required": ["form"], "additionalProperties": false}"##))
    package static let unknownFormKind = DocumentedError(.unknownFormKind("", known: []), "Unknown form kind", data: .schema(##"{"type": "object", "properties": {"kind": {"type": "string"}, "known": {"type": "array", "items": {"type": "string"}}}, "required": ["kind", "known"], "additionalProperties": false}"##))
    package static let unknownField = DocumentedError(.unknownField("", kind: "", fields: []), "Unknown field", data: .schema(##"{"type": "object", "properties": {"field": {"type": "string"}, "kind": {"type": "string"}, "fields": {"type": "array", "items": {"type": "string"}}}, "required": ["field", "kind", "fields"], "additionalProperties": false}"##))
    package static let valueTooLong = DocumentedError(.valueTooLong(field: "", limit: 0, unit: ""), "Value too long", data: .schema(##"{"type": "object", "properties": {"field": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["field", "limit"], "additionalProperties": false}"##))
    package static let tooManyForms = DocumentedError(.tooManyForms(limit: 0), "Too many forms", data: .schema(##"{"type": "object", "properties": {"limit": {"type": "integer"}}, "required": ["limit"], "additionalProperties": false}"##))
    package static let clockNotVirtual = DocumentedError(.clockNotVirtual(method: ""), "The method needs the virtual clock")
    package static let timeWentBackwards = DocumentedError(.timeWentBackwards(now: 0, requested: 0), "Virtual time only moves forward", data: .schema(##"{"type": "object", "properties": {"now": {"$ref": "#/components/schemas/Time"}, "requested": {"type": "integer"}}, "required": ["now", "requested"], "additionalProperties": false}"##))
    package static let unknownForm = DocumentedError(.unknownForm(""), "Unknown form", data: .schema(##"{"type": "object", "properties": {"form": {"type": "string"}}, "required": ["form"], "additionalProperties": false}"##))
}
