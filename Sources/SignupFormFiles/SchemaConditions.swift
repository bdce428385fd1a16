import SignupCore
import SignupProtocol
import SignupSchema

/// A JSON Schema form's conditional keywords at the root, read as which fields are shown and
/// required as the person types (protocol.md §17, "Conditional fields"):
/// - `if`/`then`/`else` (also inside a root `allOf`): `if` is judged on the values typed so far;
///   the branch it picks applies;
/// - `dependentRequired`: a field typed into requires the fields it names;
/// - `dependentSchemas`: a field typed into applies its schema as a branch;
/// - `oneOf` whose branches each give one member a `const`: the branch whose `const` the member
///   holds applies.
/// A branch that applies shows and requires the fields of its `required`, shows the fields of its
/// `properties`, and hides the fields its `not: {"required": […]}` names. A field that appears only
/// in branches is hidden until one applies.
struct SchemaConditions {
    /// A branch of the schema: what it shows, requires and hides, by property name.
    struct Branch {
        var shows: Set<String> = []
        var requires: Set<String> = []
        var hides: Set<String> = []

        init(_ schema: JSON) {
            shows = Set(schema["properties"]?.members?.map(\.key) ?? [])
            requires = Set(schema["required"]?.elements?.compactMap(\.string) ?? [])
            hides = Set(schema["not"]?["required"]?.elements?.compactMap(\.string) ?? [])
            shows.formUnion(requires)
        }
    }

    enum Condition {
        /// `if` judged by `validator`; `then` or `else` applies.
        case ifThenElse(SchemaValidator, then: Branch?, else: Branch?)
        /// When `field` holds a value, `branch` applies.
        case whenPresent(field: String, Branch)
        /// When `field` holds `value`, `branch` applies.
        case whenEqual(field: String, value: JSON, Branch)
    }

    var conditions: [Condition] = []
    /// The fields named by some branch, with the schema of the first branch that declares each
    /// field not in the root's `properties`.
    var branchOnly: [(name: String, schema: JSON)] = []
    /// The properties the conditions read; nil when an `if` reads more than its `properties` and
    /// `required` say, and every edit must ask.
    var reads: Set<String>? = []

    /// The conditions of `document`, compiled beside `registry`; none for a schema without any.
    init(_ document: JSON, base: SchemaRegistry.Located, registry: SchemaRegistry, reader: FormFile.Reader) throws(FormFile.Problem) {
        let rootProperties = Set(document["properties"]?.members?.map(\.key) ?? [])
        var ifs: [(schema: JSON, path: String, container: JSON)] = []
        if let condition = document["if"] { ifs.append((condition, "$.if", document)) }
        for (index, member) in (document["allOf"]?.elements ?? []).enumerated() {
            if let condition = member["if"] { ifs.append((condition, "$.allOf[\(index)].if", member)) }
        }
        func note(_ branch: JSON?) {
            for member in branch?["properties"]?.members ?? [] where !rootProperties.contains(member.key)
                && !branchOnly.contains(where: { $0.name == member.key }) {
                branchOnly.append((member.key, member.value))
            }
            for name in branch?["required"]?.elements?.compactMap(\.string) ?? [] where !rootProperties.contains(name)
                && !branchOnly.contains(where: { $0.name == name }) {
                branchOnly.append((name, .object([])))
            }
        }
        for (condition, path, container) in ifs {
            let validator: SchemaValidator
            do throws(SchemaProblem) {
                validator = SchemaValidator(registry: registry, root: SchemaRegistry.Located(node: condition, base: base.base, dialect: base.dialect))
                _ = try validator.validate(.object([]))
            } catch {
                throw reader.fail(path, error.description)
            }
            note(container["then"])
            note(container["else"])
            conditions.append(.ifThenElse(validator, then: container["then"].map(Branch.init), else: container["else"].map(Branch.init)))
            let known: Set<String> = ["properties", "required", "type", "$comment", "title", "description"]
            if condition.members?.contains(where: { !known.contains($0.key) }) ?? true {
                reads = nil
            } else {
                reads?.formUnion(condition["properties"]?.members?.map(\.key) ?? [])
                reads?.formUnion(condition["required"]?.elements?.compactMap(\.string) ?? [])
            }
        }
        for member in document["dependentRequired"]?.members ?? [] {
            let branch = JSON.object([JSON.Member(key: "required", value: member.value)])
            note(branch)
            conditions.append(.whenPresent(field: member.key, Branch(branch)))
            reads?.insert(member.key)
        }
        for member in document["dependentSchemas"]?.members ?? [] {
            note(member.value)
            conditions.append(.whenPresent(field: member.key, Branch(member.value)))
            reads?.insert(member.key)
        }
        for (index, branch) in (document["oneOf"]?.elements ?? []).enumerated() {
            let discriminators = (branch["properties"]?.members ?? []).filter { $0.value["const"] != nil }
            guard discriminators.count == 1, let discriminator = discriminators.first, let value = discriminator.value["const"] else {
                throw reader.fail("$.oneOf[\(index)]", "a form reads a oneOf whose branches each give one member a const")
            }
            note(branch)
            conditions.append(.whenEqual(field: discriminator.key, value: value, Branch(branch)))
            reads?.insert(discriminator.key)
        }
    }

    var isEmpty: Bool { conditions.isEmpty }

    /// The form's conditions over `fields` (their schemas' types in `types`, by position).
    func formConditions(fields: [FieldDefinition], types: [String?]) -> FormConditions {
        let names = fields.map(\.name)
        let staticRequired = fields.map(\.isRequired)
        let branchOnlyNames = Set(branchOnly.map(\.name))
        var named: Set<String> = branchOnlyNames
        for condition in conditions {
            let branches: [Branch?] = switch condition {
            case .ifThenElse(_, let then, let otherwise): [then, otherwise]
            case .whenPresent(_, let branch), .whenEqual(_, _, let branch): [branch]
            }
            for branch in branches.compactMap({ $0 }) { named.formUnion(branch.requires.union(branch.hides)) }
        }
        let conditional = names.indices.filter { named.contains(names[$0]) }
        let isRead = names.map { reads?.contains($0) ?? true }
        let conditions = self.conditions
        // A hidden field counts as absent: the conditions are asked again with the values of the
        // fields they hide left out, until they agree (a few rounds; chains of conditions are short).
        let once: @Sendable ([String], MatchBudget) -> [FieldPresence] = { values, budget in
            let document = Self.document(names: names, types: types, values: values)
            var shown = Set(names.filter { !branchOnlyNames.contains($0) })
            var required = Set(names.indices.filter { staticRequired[$0] }.map { names[$0] })
            var hidden: Set<String> = []
            func apply(_ branch: Branch) {
                shown.formUnion(branch.shows)
                required.formUnion(branch.requires)
                hidden.formUnion(branch.hides)
            }
            for condition in conditions {
                switch condition {
                case .ifThenElse(let validator, let then, let otherwise):
                    // An `if` that cannot decide (a pattern past its budget) applies neither branch.
                    guard let verdict = try? validator.validate(document, budget: budget).valid else { continue }
                    if let branch = verdict ? then : otherwise { apply(branch) }
                case .whenPresent(let field, let branch):
                    if let index = names.firstIndex(of: field), !values[index].isEmpty { apply(branch) }
                case .whenEqual(let field, let value, let branch):
                    if document[field]?.isSchemaEqual(to: value) == true { apply(branch) }
                }
            }
            return names.map { name in
                let isShown = shown.contains(name) && !hidden.contains(name)
                return FieldPresence(shown: isShown, required: isShown && required.contains(name))
            }
        }
        return FormConditions(conditionalFields: conditional, isRead: isRead) { values in
            // One line's pattern budget (§10) for every `if` of every round: an edit is one line.
            let budget = MatchBudget()
            var asked = values
            var presence = once(asked, budget)
            for _ in 0..<4 {
                let present = values.indices.map { presence[$0].shown ? values[$0] : "" }
                if present == asked { break }
                asked = present
                presence = once(asked, budget)
            }
            return presence
        }
    }

    /// The object the values make, as a submission would send it: each field that holds a value,
    /// typed as its schema says (a number, a boolean, else a string); a value that is not of its
    /// type stays a string. Fields named by a pointer (`traits/email`) nest.
    static func document(names: [String], types: [String?], values: [String]) -> JSON {
        var root: [JSON.Member] = []
        for index in names.indices where !values[index].isEmpty {
            let value = values[index]
            let typed: JSON = switch types.indices.contains(index) ? types[index] : nil {
            case "integer", "number": NumberRule.number(value) != nil ? .number(value) : .string(value)
            case "boolean": value == "true" ? .bool(true) : value == "false" ? .bool(false) : .string(value)
            default: .string(value)
            }
            let path = JSONPointer.tokens("/" + names[index]) ?? [names[index]]
            insert(typed, at: path[...], into: &root)
        }
        return .object(root)
    }

    private static func insert(_ value: JSON, at path: ArraySlice<String>, into members: inout [JSON.Member]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            members.append(JSON.Member(key: first, value: value))
            return
        }
        var inner = members.first { $0.key == first }?.value.members ?? []
        insert(value, at: path.dropFirst(), into: &inner)
        members.removeAll { $0.key == first }
        members.append(JSON.Member(key: first, value: .object(inner)))
    }
}
