import SignupCore
import SignupProtocol

/// Judges instances against a schema of the registry, as JSON Schema draft 2020-12 (§7–§12 of
/// its core, and its validation specification) or draft-07 says, whichever the schema is written
/// in. Lengths count code points; `pattern` searches (unanchored), with ECMA-262's `\d`, `\w`
/// and `$` read as ECMA-262 reads them; `format` asserts only where `assertsFormats` is set or the
/// dialect's meta-schema turns format-assertion on.
///
/// An evaluation is bounded: at most `SchemaRegistry.maxDepth` schemas deep (a `$ref` cycle that
/// reads no further into the instance ends there, as `SchemaProblem.tooCostly`), and its
/// patterns pay from one `MatchBudget`.
package struct SchemaValidator: Sendable {
    package let registry: SchemaRegistry
    package let root: SchemaRegistry.Located
    package var assertsFormats: Bool

    /// The most schema objects one validation evaluates (each subschema applied to each value
    /// counts once); past it, `SchemaProblem.tooCostly`. 20 000 take about 30 ms on a 2 GHz core
    /// (release build), so a form's conditions or its tap stay within a line's 100 ms.
    package static let maxEvaluations = 20_000

    package init(registry: SchemaRegistry, root: SchemaRegistry.Located, assertsFormats: Bool = false) {
        self.registry = registry
        self.root = root
        self.assertsFormats = assertsFormats
    }

    /// Compiles `document` (retrieved from `uri`) beside the schemas `registry` holds.
    package init(_ document: JSON, at uri: String = "urn:signup-rpc:schema", dialect: SchemaDialect = .draft2020_12,
                 registry: SchemaRegistry = SchemaRegistry(), assertsFormats: Bool = false) throws(SchemaProblem) {
        var registry = registry
        root = try registry.add(document, at: uri, dialect: dialect)
        self.registry = registry
        self.assertsFormats = assertsFormats
    }

    /// The verdict on `instance`, with every error (the basic output format's units).
    package func validate(_ instance: JSON, budget: MatchBudget = MatchBudget(stepsPerMessage: 4096)) throws(SchemaProblem) -> SchemaOutput {
        let evaluation = Evaluation(registry: registry, assertsFormats: assertsFormats, budget: budget)
        let outcome = try evaluation.evaluate(root.node, instance, base: root.base, isOwnBase: true, dialect: root.dialect,
                                                  keywordPath: "", instancePath: "")
        return SchemaOutput(valid: outcome.valid, errors: evaluation.errors)
    }
}

/// The basic output format (JSON Schema core §12.4.2): a verdict and a flat list of errors.
package struct SchemaOutput: Equatable, Sendable {
    package struct Unit: Equatable, Sendable {
        /// The path of keywords evaluated to reach the one that failed, as a JSON Pointer.
        package let keywordLocation: String
        /// Where in the instance it failed, as a JSON Pointer.
        package let instanceLocation: String
        /// The keyword that failed (`minLength`, `required`, …).
        package let keyword: String
        /// The keyword's value, for a message's params.
        package let value: JSON
        package let error: String
    }

    package let valid: Bool
    package let errors: [Unit]
}

/// Which parts of an instance a schema evaluated successfully: what `unevaluatedProperties` and
/// `unevaluatedItems` read (core §11).
private struct Evaluated {
    var properties: Set<String> = []
    /// Items before this index were evaluated (`prefixItems`, draft-07's array `items`).
    var prefix = 0
    /// Every item was evaluated (`items`, `additionalItems`, `unevaluatedItems`).
    var allItems = false
    /// Items `contains` matched.
    var items: Set<Int> = []

    mutating func merge(_ other: Evaluated) {
        properties.formUnion(other.properties)
        prefix = max(prefix, other.prefix)
        allItems = allItems || other.allItems
        items.formUnion(other.items)
    }
}

private struct Outcome {
    var valid: Bool
    var evaluated: Evaluated
}

/// One validation's state: errors so far, the dynamic scope, the depth, the pattern budget.
private final class Evaluation {
    let registry: SchemaRegistry
    let assertsFormats: Bool
    let budget: MatchBudget
    var errors: [SchemaOutput.Unit] = []
    /// The schema resources entered, outermost first (core §7.1): what `$dynamicRef` searches.
    var dynamicScope: [SchemaURI] = []
    var depth = 0
    /// Schema objects evaluated so far: references that fan out (an `allOf` of ten `$ref`s to an
    /// `allOf` of ten, eight deep) would otherwise ask for 10⁸ of them.
    var evaluations = 0

    init(registry: SchemaRegistry, assertsFormats: Bool, budget: MatchBudget) {
        self.registry = registry
        self.assertsFormats = assertsFormats
        self.budget = budget
    }

    /// Evaluates `schema` in place of a keyword's result, keeping its errors only if `keep` says so.
    func trial(_ body: () throws(SchemaProblem) -> Outcome, keepErrors keep: (Outcome) -> Bool) throws(SchemaProblem) -> Outcome {
        let mark = errors.count
        let outcome = try body()
        if !keep(outcome) { errors.removeSubrange(mark...) }
        return outcome
    }

    func fail(_ keyword: String, _ value: JSON, _ keywordPath: String, _ instancePath: String, _ message: String) {
        errors.append(SchemaOutput.Unit(keywordLocation: keywordPath + "/" + JSONPointer.escape(keyword), instanceLocation: instancePath,
                                        keyword: keyword, value: value, error: message))
    }

    /// Evaluates `schema` on `instance`. `base` is the base URI of the schema's parent, against
    /// which its own `$id` resolves, unless `isOwnBase` (a schema a reference found, whose
    /// `SchemaRegistry.Located` base is its own already).
    func evaluate(_ schema: JSON, _ instance: JSON, base: SchemaURI, isOwnBase: Bool = false, dialect: SchemaDialect,
                  keywordPath: String, instancePath: String) throws(SchemaProblem) -> Outcome {
        switch schema {
        case .bool(true): return Outcome(valid: true, evaluated: Evaluated())
        case .bool(false):
            errors.append(SchemaOutput.Unit(keywordLocation: keywordPath, instanceLocation: instancePath, keyword: "false",
                                            value: .bool(false), error: "no value is allowed here"))
            return Outcome(valid: false, evaluated: Evaluated())
        case .object: break
        default: return Outcome(valid: true, evaluated: Evaluated())
        }
        depth += 1
        defer { depth -= 1 }
        evaluations += 1
        guard depth < SchemaRegistry.maxDepth, evaluations <= SchemaValidator.maxEvaluations else { throw .tooCostly }
        var dialect = dialect
        if let declared = schema["$schema"]?.string, let known = SchemaDialect.named(declared) { dialect = known }
        var base = base
        if !isOwnBase, let identifier = SchemaRegistry.identifier(of: schema, in: dialect),
           !(dialect.draft == .draft7 && identifier.hasPrefix("#")) {
            base = base.resolving(identifier).withoutFragment
        }
        let entered = dynamicScope.last != base
        if entered { dynamicScope.append(base) }
        defer { if entered { dynamicScope.removeLast() } }
        var keywords = Keywords(evaluation: self, schema: schema, instance: instance, base: base, dialect: dialect,
                                keywordPath: keywordPath, instancePath: instancePath)
        return try keywords.run()
    }

    /// The schema `$dynamicRef` reaches (core §8.2.3.2): the outermost resource in the dynamic
    /// scope with a `$dynamicAnchor` of the name, when the reference's own target has one.
    func dynamicTarget(of reference: String, base: SchemaURI) -> SchemaRegistry.Located? {
        let uri = base.resolving(reference)
        guard let initial = registry.resolve(uri) else { return nil }
        guard let name = uri.fragment, !name.isEmpty, !name.hasPrefix("/"), registry.isDynamicAnchor(uri) else { return initial }
        for scope in dynamicScope {
            var anchored = scope
            anchored.fragment = name
            if registry.isDynamicAnchor(anchored), let found = registry.resolve(anchored) { return found }
        }
        return initial
    }
}

/// The keywords of one schema object applied to one instance.
private struct Keywords {
    let evaluation: Evaluation
    let schema: JSON
    let instance: JSON
    let base: SchemaURI
    let dialect: SchemaDialect
    let keywordPath: String
    let instancePath: String
    var valid = true
    var evaluated = Evaluated()

    init(evaluation: Evaluation, schema: JSON, instance: JSON, base: SchemaURI, dialect: SchemaDialect, keywordPath: String, instancePath: String) {
        self.evaluation = evaluation
        self.schema = schema
        self.instance = instance
        self.base = base
        self.dialect = dialect
        self.keywordPath = keywordPath
        self.instancePath = instancePath
    }

    private func has(_ vocabulary: SchemaDialect.Vocabulary) -> Bool { dialect.vocabularies.contains(vocabulary) }

    private mutating func fail(_ keyword: String, _ message: String) {
        valid = false
        evaluation.fail(keyword, schema[keyword] ?? .null, keywordPath, instancePath, message)
    }

    /// Evaluates a subschema at `path` (below this schema) on `value` at `at`.
    private func sub(_ subschema: JSON, _ path: String, _ value: JSON, at location: String? = nil) throws(SchemaProblem) -> Outcome {
        try evaluation.evaluate(subschema, value, base: base, dialect: dialect, keywordPath: keywordPath + path,
                                instancePath: location ?? instancePath)
    }

    mutating func run() throws(SchemaProblem) -> Outcome {
        // Draft-07: a `$ref` makes every other keyword beside it ignored.
        if dialect.draft == .draft7, let reference = schema["$ref"]?.string {
            try applyReference(reference, keyword: "$ref")
            return Outcome(valid: valid, evaluated: evaluated)
        }
        if let reference = schema["$ref"]?.string { try applyReference(reference, keyword: "$ref") }
        if dialect.draft == .draft2020_12, let reference = schema["$dynamicRef"]?.string {
            guard let target = evaluation.dynamicTarget(of: reference, base: base) else {
                throw .unresolvableReference(base.resolving(reference).description)
            }
            let outcome = try evaluation.evaluate(target.node, instance, base: target.base, isOwnBase: true, dialect: target.dialect,
                                                  keywordPath: keywordPath + "/$dynamicRef", instancePath: instancePath)
            absorb(outcome)
        }
        if has(.applicator) { try applyApplicators() }
        if has(.validation) { try applyAssertions() }
        if has(.formatAssertion) || evaluation.assertsFormats, let format = schema["format"]?.string {
            if let verdict = SchemaFormat.check(format, instance), !verdict { fail("format", "is not a valid \(format)") }
        }
        if has(.unevaluated) { try applyUnevaluated() }
        return Outcome(valid: valid, evaluated: evaluated)
    }

    private mutating func absorb(_ outcome: Outcome) {
        if outcome.valid { evaluated.merge(outcome.evaluated) } else { valid = false }
    }

    private mutating func applyReference(_ reference: String, keyword: String) throws(SchemaProblem) {
        let uri = base.resolving(reference)
        guard let target = evaluation.registry.resolve(uri) else { throw .unresolvableReference(uri.description) }
        let outcome = try evaluation.evaluate(target.node, instance, base: target.base, isOwnBase: true, dialect: target.dialect,
                                              keywordPath: keywordPath + "/" + keyword, instancePath: instancePath)
        absorb(outcome)
    }

    // MARK: Applicators (core §10)

    private mutating func applyApplicators() throws(SchemaProblem) {
        if let all = schema["allOf"]?.elements {
            for (index, subschema) in all.enumerated() { absorb(try sub(subschema, "/allOf/\(index)", instance)) }
        }
        if let any = schema["anyOf"]?.elements {
            var passed = false
            let mark = evaluation.errors.count
            for (index, subschema) in any.enumerated() {
                let outcome = try sub(subschema, "/anyOf/\(index)", instance)
                if outcome.valid {
                    passed = true
                    evaluated.merge(outcome.evaluated)
                }
            }
            if passed { evaluation.errors.removeSubrange(mark...) } else { valid = false }
        }
        if let one = schema["oneOf"]?.elements {
            var passing: [Outcome] = []
            let mark = evaluation.errors.count
            for (index, subschema) in one.enumerated() {
                let outcome = try sub(subschema, "/oneOf/\(index)", instance)
                if outcome.valid { passing.append(outcome) }
            }
            if passing.count == 1 {
                evaluation.errors.removeSubrange(mark...)
                evaluated.merge(passing[0].evaluated)
            } else if passing.count > 1 {
                evaluation.errors.removeSubrange(mark...)
                fail("oneOf", "matches \(passing.count) of the subschemas, not exactly one")
            } else {
                valid = false
            }
        }
        if let not = schema["not"] {
            let outcome = try evaluation.trial({ () throws(SchemaProblem) -> Outcome in try sub(not, "/not", instance) }, keepErrors: { _ in false })
            if outcome.valid { fail("not", "must not match the schema") }
        }
        if let condition = schema["if"] {
            let outcome = try evaluation.trial({ () throws(SchemaProblem) -> Outcome in try sub(condition, "/if", instance) }, keepErrors: { _ in false })
            if outcome.valid {
                evaluated.merge(outcome.evaluated)
                if let then = schema["then"] { absorb(try sub(then, "/then", instance)) }
            } else if let otherwise = schema["else"] {
                absorb(try sub(otherwise, "/else", instance))
            }
        }
        switch instance {
        case .object(let members): try applyObjectApplicators(members)
        case .array(let elements): try applyArrayApplicators(elements)
        default: break
        }
    }

    private mutating func applyObjectApplicators(_ members: [JSON.Member]) throws(SchemaProblem) {
        let properties = schema["properties"]?.members ?? []
        let patterns = schema["patternProperties"]?.members ?? []
        var matchedByPattern: Set<String> = []
        for member in members {
            let location = instancePath + "/" + JSONPointer.escape(member.key)
            if let property = properties.first(where: { $0.key == member.key }) {
                absorb(try sub(property.value, "/properties/" + JSONPointer.escape(member.key), member.value, at: location))
                evaluated.properties.insert(member.key)
            }
            for pattern in patterns {
                guard try matches(pattern.key, member.key) else { continue }
                matchedByPattern.insert(member.key)
                absorb(try sub(pattern.value, "/patternProperties/" + JSONPointer.escape(pattern.key), member.value, at: location))
                evaluated.properties.insert(member.key)
            }
        }
        if let additional = schema["additionalProperties"] {
            for member in members where !properties.contains(where: { $0.key == member.key }) && !matchedByPattern.contains(member.key) {
                absorb(try sub(additional, "/additionalProperties", member.value, at: instancePath + "/" + JSONPointer.escape(member.key)))
                evaluated.properties.insert(member.key)
            }
        }
        if let names = schema["propertyNames"] {
            for member in members {
                absorb(try sub(names, "/propertyNames", .string(member.key), at: instancePath + "/" + JSONPointer.escape(member.key)))
            }
        }
        let dependentKeyword = dialect.draft == .draft7 ? "dependencies" : "dependentSchemas"
        for dependent in schema[dependentKeyword]?.members ?? [] where dependent.value.elements == nil {
            guard members.contains(where: { $0.key == dependent.key }) else { continue }
            absorb(try sub(dependent.value, "/\(dependentKeyword)/" + JSONPointer.escape(dependent.key), instance))
        }
    }

    private mutating func applyArrayApplicators(_ elements: [JSON]) throws(SchemaProblem) {
        let prefix: [JSON]
        let rest: (keyword: String, schema: JSON)?
        switch dialect.draft {
        case .draft2020_12:
            prefix = schema["prefixItems"]?.elements ?? []
            rest = schema["items"].map { ("items", $0) }
        case .draft7:
            if let tuple = schema["items"]?.elements {
                prefix = tuple
                rest = schema["additionalItems"].map { ("additionalItems", $0) }
            } else {
                prefix = []
                rest = schema["items"].map { ("items", $0) }
            }
        }
        let prefixKeyword = dialect.draft == .draft7 ? "items" : "prefixItems"
        for (index, element) in elements.enumerated() {
            let location = instancePath + "/\(index)"
            if index < prefix.count {
                absorb(try sub(prefix[index], "/\(prefixKeyword)/\(index)", element, at: location))
            } else if let rest {
                absorb(try sub(rest.schema, "/" + rest.keyword, element, at: location))
            }
        }
        evaluated.prefix = max(evaluated.prefix, min(prefix.count, elements.count))
        if rest != nil, elements.count > prefix.count { evaluated.allItems = true }
        if let contains = schema["contains"] {
            var matched: Set<Int> = []
            let mark = evaluation.errors.count
            for (index, element) in elements.enumerated() {
                if try sub(contains, "/contains", element, at: instancePath + "/\(index)").valid { matched.insert(index) }
            }
            evaluation.errors.removeSubrange(mark...)
            evaluated.items.formUnion(matched)
            let counted = has(.validation) && dialect.draft == .draft2020_12
            let minimum = counted ? schema["minContains"]?.schemaNumber : nil
            let maximum = counted ? schema["maxContains"]?.schemaNumber : nil
            if let minimum {
                if SchemaNumber(matched.count).compare(minimum) < 0 { fail("minContains", "must contain at least \(Self.text(minimum)) matching items") }
            } else if matched.isEmpty {
                fail("contains", "must contain an item that matches the schema")
            }
            if let maximum, SchemaNumber(matched.count).compare(maximum) > 0 {
                fail("maxContains", "must contain at most \(Self.text(maximum)) matching items")
            }
        }
    }

    // MARK: Unevaluated (core §11)

    private mutating func applyUnevaluated() throws(SchemaProblem) {
        if let unevaluated = schema["unevaluatedProperties"], case .object(let members) = instance {
            for member in members where !evaluated.properties.contains(member.key) {
                absorb(try sub(unevaluated, "/unevaluatedProperties", member.value, at: instancePath + "/" + JSONPointer.escape(member.key)))
                evaluated.properties.insert(member.key)
            }
        }
        if let unevaluated = schema["unevaluatedItems"], case .array(let elements) = instance, !evaluated.allItems {
            for (index, element) in elements.enumerated() where index >= evaluated.prefix && !evaluated.items.contains(index) {
                absorb(try sub(unevaluated, "/unevaluatedItems", element, at: instancePath + "/\(index)"))
            }
            evaluated.allItems = true
        }
    }

    // MARK: Assertions (validation §6)

    private mutating func applyAssertions() throws(SchemaProblem) {
        if let type = schema["type"] {
            let names = type.elements?.compactMap(\.string) ?? type.string.map { [$0] } ?? []
            if !names.contains(where: { Self.instance(instance, isOfType: $0) }) {
                fail("type", "must be " + names.joined(separator: " or "))
            }
        }
        if let options = schema["enum"]?.elements, !options.contains(where: { $0.isSchemaEqual(to: instance) }) {
            fail("enum", "must be one of the listed values")
        }
        if let constant = schema["const"], !constant.isSchemaEqual(to: instance) {
            fail("const", "must be the given value")
        }
        switch instance {
        case .number(let text): if let number = SchemaNumber(text) { applyNumeric(number) }
        case .string(let text): try applyString(text)
        case .array(let elements): applyArray(elements)
        case .object(let members): applyObject(members)
        default: break
        }
    }

    private mutating func applyNumeric(_ number: SchemaNumber) {
        if let divisor = schema["multipleOf"]?.schemaNumber, !number.isMultiple(of: divisor) {
            fail("multipleOf", "must be a multiple of \(Self.text(divisor))")
        }
        if let maximum = schema["maximum"]?.schemaNumber, number.compare(maximum) > 0 { fail("maximum", "must be at most \(Self.text(maximum))") }
        if let maximum = schema["exclusiveMaximum"]?.schemaNumber, number.compare(maximum) >= 0 {
            fail("exclusiveMaximum", "must be less than \(Self.text(maximum))")
        }
        if let minimum = schema["minimum"]?.schemaNumber, number.compare(minimum) < 0 { fail("minimum", "must be at least \(Self.text(minimum))") }
        if let minimum = schema["exclusiveMinimum"]?.schemaNumber, number.compare(minimum) <= 0 {
            fail("exclusiveMinimum", "must be greater than \(Self.text(minimum))")
        }
    }

    private mutating func applyString(_ text: String) throws(SchemaProblem) {
        let length = text.unicodeScalars.count
        if let maximum = schema["maxLength"]?.schemaNumber, SchemaNumber(length).compare(maximum) > 0 {
            fail("maxLength", "must have at most \(Self.text(maximum)) characters")
        }
        if let minimum = schema["minLength"]?.schemaNumber, SchemaNumber(length).compare(minimum) < 0 {
            fail("minLength", "must have at least \(Self.text(minimum)) characters")
        }
        if let pattern = schema["pattern"]?.string, try !matches(pattern, text) {
            fail("pattern", "must match the pattern \(pattern)")
        }
    }

    private mutating func applyArray(_ elements: [JSON]) {
        if let maximum = schema["maxItems"]?.schemaNumber, SchemaNumber(elements.count).compare(maximum) > 0 {
            fail("maxItems", "must have at most \(Self.text(maximum)) items")
        }
        if let minimum = schema["minItems"]?.schemaNumber, SchemaNumber(elements.count).compare(minimum) < 0 {
            fail("minItems", "must have at least \(Self.text(minimum)) items")
        }
        if case .bool(true) = schema["uniqueItems"] ?? .null {
            // By canonical text, so that a long array costs a pass, not a comparison of every pair.
            var seen = Set<[UInt8]>()
            for element in elements where !seen.insert(Array(element.canonicalText.utf8)).inserted {
                fail("uniqueItems", "must not have equal items")
                break
            }
        }
    }

    private mutating func applyObject(_ members: [JSON.Member]) {
        if let maximum = schema["maxProperties"]?.schemaNumber, SchemaNumber(members.count).compare(maximum) > 0 {
            fail("maxProperties", "must have at most \(Self.text(maximum)) properties")
        }
        if let minimum = schema["minProperties"]?.schemaNumber, SchemaNumber(members.count).compare(minimum) < 0 {
            fail("minProperties", "must have at least \(Self.text(minimum)) properties")
        }
        if let required = schema["required"]?.elements {
            let missing = required.compactMap(\.string).filter { name in !members.contains { $0.key == name } }
            if !missing.isEmpty { fail("required", "must have " + missing.joined(separator: ", ")) }
        }
        let dependentKeyword = dialect.draft == .draft7 ? "dependencies" : "dependentRequired"
        for dependent in schema[dependentKeyword]?.members ?? [] {
            guard let needed = dependent.value.elements, members.contains(where: { $0.key == dependent.key }) else { continue }
            let missing = needed.compactMap(\.string).filter { name in !members.contains { $0.key == name } }
            if !missing.isEmpty { fail(dependentKeyword, "must have " + missing.joined(separator: ", ") + " with " + dependent.key) }
        }
    }

    // MARK: Helpers

    private func matches(_ pattern: String, _ text: String) throws(SchemaProblem) -> Bool {
        guard let compiled = CompiledPattern.named(ECMAPattern.translated(pattern)) else { throw .invalidPattern(pattern) }
        switch compiled.judge(searching: text, within: evaluation.budget) {
        case .passes: return true
        case .fails: return false
        case .tooCostly: throw .patternTooCostly(pattern)
        }
    }

    static func instance(_ instance: JSON, isOfType name: String) -> Bool {
        switch (name, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let text)): SchemaNumber(text)?.isInteger ?? false
        default: false
        }
    }

    static func text(_ number: SchemaNumber) -> String {
        if let decimal = number.decimal { return "\(decimal)" }
        return "\(number.double)"
    }
}
