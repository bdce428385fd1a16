/// A JSON value, for message parameters and accounts that travel to clients unchanged.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue {
    /// The same value with `transform` applied to every string in it, member names aside.
    public func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let elements): .array(elements.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.mapValues { $0.mappingStrings(transform) })
        case .null, .bool, .int, .double: self
        }
    }

    /// The text a message template shows for this value.
    public var templateText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return value
        case .array(let values): return values.map(\.templateText).joined(separator: ", ")
        case .object: return "{…}"
        }
    }
}
