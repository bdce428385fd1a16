/// Typed access to a request's named parameters. Unknown members are rejected, so a misspelt
/// name is reported instead of silently ignored.
package struct Params {
    private let members: [JSON.Member]

    /// No params at all.
    package init() {
        members = []
    }

    /// `allowed` are the method's parameters; a handful, so they are scanned rather than hashed.
    /// With `ignoringOthers` (for `initialize`, as LSP clients send members of their own), other
    /// members are skipped rather than refused.
    package init(_ params: JSON?, allowed: [DocumentedParameter], ignoringOthers: Bool = false) throws(RPCError) {
        switch params {
        case nil:
            members = []
        case .array(let elements)? where elements.isEmpty && allowed.isEmpty:
            // A method without params may be sent `[]`, as positional client libraries do.
            members = []
        case .object(let members)? where ignoringOthers:
            self.members = members.filter { member in allowed.contains { $0.name == member.key } }
        case .object(let members)?:
            self.members = members
        case .array?:
            throw .invalidParams(member: "params", problem: "must be an object with named members, not an array")
        case let other?:
            throw .invalidParams(member: "params", problem: "must be an object, not \(other.typeName)")
        }
        // Every member before a repeat is a distinct allowed name, so this scan stays short.
        for (position, member) in members.enumerated() {
            guard allowed.contains(where: { $0.name == member.key }) else {
                let names = allowed.map(\.name).sorted().joined(separator: ", ")
                throw .invalidParams(member: "params.\(member.key)", problem: "is not a parameter of this method (it takes \(names.isEmpty ? "none" : names))")
            }
            guard !members[..<position].contains(where: { $0.key == member.key }) else {
                throw .invalidParams(member: "params.\(member.key)", problem: "appears more than once")
            }
        }
    }

    package func value(_ name: String) -> JSON? {
        members.first { $0.key == name }?.value
    }

    package func string(_ name: String) throws(RPCError) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidParams(member: "params.\(name)", problem: "must be a string, not \(value.typeName)")
        }
        return text
    }

    package func requiredString(_ name: String) throws(RPCError) -> String {
        guard let text = try string(name) else { throw .invalidParams(member: "params.\(name)", problem: "is required") }
        return text
    }

    package func bool(_ name: String) throws(RPCError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else {
            throw .invalidParams(member: "params.\(name)", problem: "must be true or false, not \(value.typeName)")
        }
        return flag
    }

    /// A whole number of at least zero that fits in 64 bits.
    package func count(_ name: String) throws(RPCError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let number = value.int64, number >= 0 else {
            throw .invalidParams(member: "params.\(name)", problem: "must be a whole number of 0 or more, not \(Self.show(value))")
        }
        return number
    }

    /// An object, whatever its members hold.
    package func object(_ name: String) throws(RPCError) -> [JSON.Member]? {
        guard let value = value(name) else { return nil }
        guard case .object(let members) = value else {
            throw .invalidParams(member: "params.\(name)", problem: "must be an object, not \(value.typeName)")
        }
        return members
    }

    /// An object whose members are all strings, in the order given.
    package func stringMap(_ name: String) throws(RPCError) -> [(String, String)]? {
        guard let value = value(name) else { return nil }
        guard case .object(let members) = value else {
            throw .invalidParams(member: "params.\(name)", problem: "must be an object of strings, not \(value.typeName)")
        }
        var result: [(String, String)] = []
        for member in members {
            guard case .string(let text) = member.value else {
                throw .invalidParams(member: "params.\(name).\(member.key)", problem: "must be a string, not \(member.value.typeName)")
            }
            result.append((member.key, text))
        }
        return result
    }

    private static func show(_ value: JSON) -> String {
        if case .number(let text) = value { return text.count > 24 ? String(text.prefix(24)) + "…" : text }
        return value.typeName
    }
}
