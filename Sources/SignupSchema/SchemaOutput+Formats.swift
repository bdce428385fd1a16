import SignupCore
import SignupProtocol

extension SchemaOutput {
    /// The basic output format (core §12.4.2): `{"valid": …, "errors": [units]}`, each unit with
    /// its `keywordLocation`, `instanceLocation` and `error`, in evaluation order.
    package var basic: JSON {
        var members = [JSON.Member(key: "valid", value: .bool(valid))]
        if !valid { members.append(JSON.Member(key: "errors", value: .array(errors.map(Self.leaf)))) }
        return .object(members)
    }

    /// The detailed output format (core §12.4.3): the units nested as the schema nests the
    /// subschemas they failed in, a subschema with a single unit replaced by that unit.
    package var detailed: JSON {
        guard !valid else { return .object([JSON.Member(key: "valid", value: .bool(true)), JSON.Member(key: "keywordLocation", value: .string("")),
                                            JSON.Member(key: "instanceLocation", value: .string(""))]) }
        let root = Node(keywordLocation: "", instanceLocation: "")
        for unit in errors {
            // The subschema the keyword stands in: its location without the keyword's own token.
            let parent = unit.keywordLocation.lastIndex(of: "/").map { String(unit.keywordLocation[..<$0]) } ?? ""
            root.add(unit, inSubschemaAt: parent)
        }
        return root.json(isRoot: true)
    }

    private static func leaf(_ unit: Unit) -> JSON {
        .object([JSON.Member(key: "valid", value: .bool(false)), JSON.Member(key: "keywordLocation", value: .string(unit.keywordLocation)),
                 JSON.Member(key: "instanceLocation", value: .string(unit.instanceLocation)), JSON.Member(key: "error", value: .string(unit.error))])
    }

    /// A subschema that holds failures: its subschemas and its own failed keywords, in the order
    /// they first failed.
    private final class Node {
        enum Entry {
            case subschema(Node)
            case keyword(Unit)
        }

        let keywordLocation: String
        let instanceLocation: String
        var entries: [Entry] = []

        init(keywordLocation: String, instanceLocation: String) {
            self.keywordLocation = keywordLocation
            self.instanceLocation = instanceLocation
        }

        func add(_ unit: Unit, inSubschemaAt location: String) {
            if location == keywordLocation {
                entries.append(.keyword(unit))
                return
            }
            for case .subschema(let child) in entries where location == child.keywordLocation || location.hasPrefix(child.keywordLocation + "/") {
                child.add(unit, inSubschemaAt: location)
                return
            }
            let made = Node(keywordLocation: location, instanceLocation: unit.instanceLocation)
            entries.append(.subschema(made))
            made.add(unit, inSubschemaAt: location)
        }

        func json(isRoot: Bool = false) -> JSON {
            let units = entries.map { entry in
                switch entry {
                case .subschema(let node): node.json()
                case .keyword(let unit): SchemaOutput.leaf(unit)
                }
            }
            if !isRoot, units.count == 1 { return units[0] }
            return .object([JSON.Member(key: "valid", value: .bool(false)), JSON.Member(key: "keywordLocation", value: .string(keywordLocation)),
                            JSON.Member(key: "instanceLocation", value: .string(instanceLocation)), JSON.Member(key: "errors", value: .array(units))])
        }
    }
}
