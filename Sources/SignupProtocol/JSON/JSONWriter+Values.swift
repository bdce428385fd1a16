import SignupCore

/// Whole values: a parsed `JSON` tree as it was read, and a core `JSONValue` with its object
/// members in order of their names, so output never depends on hashing.
extension JSONWriter {
    package mutating func json(_ value: JSON) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): raw(text)
        case .string(let text): string(text)
        case .array(let elements): array { writer in for element in elements { writer.json(element) } }
        case .object(let members):
            object { writer in
                for member in members {
                    writer.key(escaping: member.key)
                    writer.json(member.value)
                }
            }
        }
    }

    /// Writes a core value; object members are sorted by name so output never depends on hashing.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): raw(number.isFinite ? "\(number)" : "null")
        case .string(let text): string(text)
        case .array(let elements): array { writer in for element in elements { writer.value(element) } }
        case .object(let members):
            object { writer in
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    writer.key(escaping: name)
                    writer.value(member)
                }
            }
        }
    }

    package mutating func fields(_ members: [String: JSONValue]) {
        if members.isEmpty {
            raw(literal: "{}")
        } else {
            value(.object(members))
        }
    }
}
