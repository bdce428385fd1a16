import SignupCore
import SignupProtocol
import SignupSchema

/// A schema's properties as a form's fields: each property's keywords as the rules a value
/// typed into it is judged by.
extension SchemaForm {
    /// The fields of an object schema's properties, in document order; a property that is an
    /// object with properties of its own gives its properties as fields instead.
    static func collectFields(of schema: JSON, in document: JSON, prefix: [String], required: Bool, path: String,
                                      into fields: inout [FieldDefinition], types: inout [String?], assertsFormats: Bool,
                                      reader: FormFile.Reader, alwaysRequired: Set<String> = []) throws(FormFile.Problem) {
        let requiredNames = Set(schema["required"]?.elements?.compactMap(\.string) ?? []).union(alwaysRequired)
        for member in schema["properties"]?.members ?? [] {
            let propertyPath = "\(path).properties.\(member.key)"
            let property = try resolved(member.value, in: document, path: propertyPath, reader: reader)
            let isRequired = required && requiredNames.contains(member.key)
            if case .string("object")? = property["type"], property["properties"] != nil {
                try collectFields(of: property, in: document, prefix: prefix + [member.key], required: isRequired, path: propertyPath,
                                  into: &fields, types: &types, assertsFormats: assertsFormats, reader: reader)
            } else {
                let name = (prefix + [member.key]).map(JSONPointer.escape).joined(separator: "/")
                fields.append(try field(name, property, isRequired: isRequired, path: propertyPath, assertsFormats: assertsFormats, reader: reader))
                types.append(property["type"]?.string)
            }
        }
    }

    /// A property's schema with a local `$ref` (`#/$defs/phone`) followed, once.
    static func resolved(_ schema: JSON, in document: JSON, path: String, reader: FormFile.Reader) throws(FormFile.Problem) -> JSON {
        guard let reference = schema["$ref"]?.string else { return schema }
        guard reference.hasPrefix("#/"), let tokens = JSONPointer.tokens(String(reference.dropFirst())) else {
            throw reader.fail("\(path).$ref", "a field's schema may only refer within its document (#/…)")
        }
        var node = document
        for token in tokens {
            guard let next = node.members?.first(where: { $0.key == token })?.value else {
                throw reader.fail("\(path).$ref", "names nothing in the document")
            }
            node = next
        }
        return node
    }

    /// One field: its rules from the keywords a value typed into it can be judged by.
    static func field(_ name: String, _ schema: JSON, isRequired: Bool, path: String, assertsFormats: Bool,
                              reader: FormFile.Reader) throws(FormFile.Problem) -> FieldDefinition {
        let vocabulary = try reader.members(schema[keyword] ?? .object([]), "\(path).\(keyword)",
                                            allowed: ["remoteChecks", "normalization", "input", "messages", "profile", "checklist"])
        var texts: [String: String] = [:]
        for member in vocabulary["messages"]?.members ?? [] {
            guard case .string(let text) = member.value else { throw reader.fail("\(path).\(keyword).messages.\(member.key)", "must be a string") }
            texts[member.key] = text
        }
        func rule(_ check: Rule.Check, _ code: String, _ text: String) -> Rule {
            Rule(check, failure: Message(code, texts[code] ?? text))
        }
        var rules: [Rule] = []
        var choices: [String]?
        let type = schema["type"]?.string
        if let constant = schema["const"] {
            let value = try choice(constant, "\(path).const", reader: reader)
            rules.append(rule(.oneOf([value]), "const", "Must be the given value"))
            choices = [value]
        }
        var enumChoices: [String]?
        if let options = schema["enum"]?.elements {
            var choices: [String] = []
            for (index, option) in options.enumerated() { choices.append(try choice(option, "\(path).enum[\(index)]", reader: reader)) }
            rules.append(rule(.oneOf(choices), "enum", "Choose one of the listed values"))
            enumChoices = choices
        }
        switch type {
        case "boolean":
            rules.append(rule(.oneOf(["true", "false"]), "boolean.type", "Must be true or false"))
            choices = choices ?? ["true", "false"]
        case "integer", "number":
            let integer = type == "integer"
            rules.append(rule(.number(.isNumber(integer: integer)), "\(type!).type", integer ? "Enter a whole number" : "Enter a number"))
            for (keyword, code, text) in [("minimum", "number.minimum", "Must be at least {min}"),
                                          ("exclusiveMinimum", "number.exclusiveMinimum", "Must be more than {min}"),
                                          ("maximum", "number.maximum", "Must be at most {max}"),
                                          ("exclusiveMaximum", "number.exclusiveMaximum", "Must be less than {max}"),
                                          ("multipleOf", "number.multipleOf", "Must be a multiple of {multipleOf}")] {
                guard let value = schema[keyword] else { continue }
                guard case .number(let written) = value, let bound = NumberRule.number(written) else {
                    throw reader.fail("\(path).\(keyword)", "must be a number of at most 38 significant digits")
                }
                let check: NumberRule = switch keyword {
                case "minimum": .atLeast(bound, exclusive: false)
                case "exclusiveMinimum": .atLeast(bound, exclusive: true)
                case "maximum": .atMost(bound, exclusive: false)
                case "exclusiveMaximum": .atMost(bound, exclusive: true)
                default: .multipleOf(bound)
                }
                rules.append(rule(.number(check), code, text))
            }
        case "string", nil:
            if let minimum = schema["minLength"] {
                rules.append(rule(.minCodePoints(try reader.count(minimum, "\(path).minLength")), "string.minLength", "At least {min} characters"))
            }
            if let maximum = schema["maxLength"] {
                rules.append(rule(.maxCodePoints(try reader.count(maximum, "\(path).maxLength")), "string.maxLength", "At most {max} characters"))
            }
            if let pattern = schema["pattern"]?.string {
                // Unanchored, as JSON Schema reads it: whole-value matching of `.*(?:P).*`.
                let search = "(?s).*(?:" + ECMAPattern.translated(pattern) + ").*"
                guard Rule.Check.isValidPattern(search) else { throw reader.fail("\(path).pattern", "does not compile") }
                rules.append(rule(.pattern(search), "string.pattern", "Not in the expected form"))
            }
            if let format = schema["format"]?.string, format == "email" || format == "idn-email" {
                rules.append(rule(.emailAddress, "string.format.email", "Enter an e-mail address such as ann@example.com"))
            } else if assertsFormats, let format = schema["format"]?.string, StringFormat.known.contains(format) {
                rules.append(rule(.format(format), "string.format." + format, "Not a valid \(format)"))
            }
        default:
            throw reader.fail("\(path).type", "a field holds a string, a number, an integer or a boolean, not \(type!)")
        }
        let isSecret = schema["writeOnly"] == .bool(true)
        var input: InputKind = isSecret ? .newPassword : .text
        if type == "integer" || type == "number" { input = .number }
        if let format = schema["format"]?.string {
            if format == "email" || format == "idn-email" { input = .email }
            if format == "tel" || format == "phone" { input = .phone }
        }
        if let declared = vocabulary["input"] {
            guard case .string(let text) = declared, let kind = InputKind(rawValue: text), !kind.isSecret || isSecret else {
                throw reader.fail("\(path).\(keyword).input", "must be an input kind (a password kind only with writeOnly)")
            }
            input = kind
        }
        var normalization = FieldDefinition.Normalization.none
        if let value = vocabulary["normalization"] {
            guard case .string(let text) = value, let parsed = FieldDefinition.Normalization(rawValue: text) else {
                throw reader.fail("\(path).\(keyword).normalization", "must be \"none\", \"nfkc\" or \"usernameCaseMapped\"")
            }
            normalization = parsed
        }
        let placeholder = schema["examples"]?.elements?.first.flatMap { example -> String? in
            switch example {
            case .string(let text): text
            case .number(let text): text
            default: nil
            }
        }
        var field = FieldDefinition(
            name: name, isRequired: isRequired, rules: rules,
            remoteChecks: try reader.remoteChecks(one: nil, list: vocabulary["remoteChecks"], "\(path).\(keyword)"),
            isSecret: isSecret, normalization: normalization,
            label: schema["title"]?.string.map { Message("\(name).label", $0) },
            placeholder: placeholder.map { Message("\(name).placeholder", $0) },
            input: input)
        field.help = schema["description"]?.string.map { Message("\(name).help", $0) }
        field.choices = enumChoices ?? choices
        // A secret has no default: a password typed by nobody is no password.
        if !isSecret, let initial = schema["default"] {
            field.initialValue = try choice(initial, "\(path).default", reader: reader)
        }
        if let profile = vocabulary["profile"] {
            try FieldProfile.apply(profile, to: &field, path: "\(path).\(keyword).profile", reader: reader)
        }
        if try reader.bool(vocabulary["checklist"], "\(path).\(keyword).checklist", default: false) {
            field.rules = field.rules.map { rule in
                var rule = rule
                if rule.requirement == nil { rule.requirement = FieldProfile.requirement(for: rule.failure.code) }
                return rule
            }
        }
        return field
    }

    /// An `enum` or `const` value as the text a field holds: a string as it is, a number or a
    /// boolean as JSON writes it.
    private static func choice(_ value: JSON, _ path: String, reader: FormFile.Reader) throws(FormFile.Problem) -> String {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: throw reader.fail(path, "a field's choices are strings, numbers or booleans")
        }
    }
}
