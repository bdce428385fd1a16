import SignupCore
import SignupProtocol

/// A form file as a recording keeps it: whole, so that its replay on another machine needs no
/// other file. A password list the file names (`{"file": PATH}`) is written in as the list itself
/// (`{"passwords": […]}`, sorted); everything else stays as read.
extension FormFile {
    static func selfContained(_ document: JSON, _ definition: FormDefinition) -> JSON {
        // A schema's kind may come from its file's name, which a recording does not keep.
        if SchemaForm.isSchema(document) || SchemaForm.isOpenAPI(document) { return SchemaForm.naming(document, kind: definition.kind) }
        guard case .array(let fields)? = document["fields"] else { return document }
        let written = fields.enumerated().map { index, field -> JSON in
            guard index < definition.fields.count, case .array(let rules)? = field["rules"] else { return field }
            let checks = definition.fields[index].rules.map(\.check)
            return replacing("rules", in: field, with: .array(zip(rules, checks).map(selfContained) + rules.dropFirst(checks.count)))
        }
        return replacing("fields", in: document, with: .array(written))
    }

    /// One rule or check object, with its `notCommonPassword` file (inside `anyOf` too) written in.
    private static func selfContained(_ check: JSON, _ parsed: Rule.Check) -> JSON {
        switch parsed {
        case .notCommonPassword(let list) where check["notCommonPassword"]?["file"] != nil:
            let passwords = JSON.array(list.sortedPasswords.map(JSON.string))
            return replacing("notCommonPassword", in: check, with: .object([JSON.Member(key: "passwords", value: passwords)]))
        case .anyOf(let alternatives):
            guard case .array(let written)? = check["anyOf"] else { return check }
            let rewritten = zip(written, alternatives).map { alternative, checks -> JSON in
                guard case .array(let items) = alternative else { return alternative }
                return .array(zip(items, checks).map(selfContained))
            }
            return replacing("anyOf", in: check, with: .array(rewritten))
        default:
            return check
        }
    }

    private static func replacing(_ key: String, in object: JSON, with value: JSON) -> JSON {
        guard case .object(let members) = object else { return object }
        return .object(members.map { $0.key == key ? JSON.Member(key: key, value: value) : $0 })
    }
}
