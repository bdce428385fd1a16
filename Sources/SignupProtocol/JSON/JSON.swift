/// A parsed JSON value as it arrived on the wire.
///
/// Numbers keep their exact text, so an id such as `12345678901234567890` or `1.50` is echoed
/// back unchanged; objects keep their members in order, duplicates included.
package enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The number's text exactly as written, already checked against the JSON grammar.
    case number(String)
    case string(String)
    case array([JSON])
    case object([Member])

    package struct Member: Equatable, Sendable {
        package var key: String
        package var value: JSON

        package init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The first member with this key, for objects.
    package subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON type's name, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The same value with each string in it (not member names) replaced by `transform`'s.
    package func mappingStrings(_ transform: (String) -> String) -> JSON {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let elements): .array(elements.map { $0.mappingStrings(transform) })
        case .object(let members): .object(members.map { Member(key: $0.key, value: $0.value.mappingStrings(transform)) })
        case .null, .bool, .number: self
        }
    }

    /// The text, if the value is a string.
    package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The value as a whole number, if it is a number without fraction or exponent that fits in 64 bits.
    package var int64: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }
}

extension UInt8 {
    /// Space, tab, line feed or carriage return: the whitespace JSON allows between tokens.
    package var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
