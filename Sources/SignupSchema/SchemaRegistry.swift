import SignupCore
import Foundation
import SignupProtocol

/// Schemas by URI: every document added, every schema resource embedded in one (`$id`), and every
/// anchor (`$anchor`, `$dynamicAnchor`, a draft-07 `$id` of `#name`), so that `$ref` and
/// `$dynamicRef` find their targets. Only positions that hold schemas are searched: an `$id`
/// inside `const`, `enum` or an unknown keyword names nothing.
package struct SchemaRegistry: Sendable {
    /// A schema, the base URI its references resolve against, and its dialect.
    package struct Located: Sendable {
        package let node: JSON
        package let base: SchemaURI
        package let dialect: SchemaDialect

        package init(node: JSON, base: SchemaURI, dialect: SchemaDialect) {
            self.node = node
            self.base = base
            self.dialect = dialect
        }
    }

    private var resources: [String: Located] = [:]
    private var anchors: [String: Located] = [:]
    private var dynamicAnchors: Set<String> = []

    package init() {}

    /// How deep a schema may nest; deeper documents are refused (`SchemaProblem.tooDeep`).
    package static let maxDepth = 512

    /// Adds `document`, retrieved from `uri` (absolute), in `dialect` unless its `$schema` says
    /// otherwise; returns where it stands.
    @discardableResult
    package mutating func add(_ document: JSON, at uri: String, dialect: SchemaDialect) throws(SchemaProblem) -> Located {
        let base = SchemaURI(uri).withoutFragment
        let dialect = try self.dialect(of: document, inheriting: dialect)
        resources[base.description] = Located(node: document, base: base, dialect: dialect)
        try index(document, base: base, dialect: dialect, depth: 0)
        // The document's own base: its `$id`, resolved against where it was retrieved from.
        let own = Self.identifier(of: document, in: dialect).flatMap { $0.hasPrefix("#") ? nil : base.resolving($0).withoutFragment } ?? base
        return Located(node: document, base: own, dialect: dialect)
    }

    /// The dialect `node` declares with `$schema`, else `inherited`.
    private func dialect(of node: JSON, inheriting inherited: SchemaDialect) throws(SchemaProblem) -> SchemaDialect {
        guard let declared = node["$schema"]?.string else { return inherited }
        if let known = SchemaDialect.named(declared) { return known }
        // A meta-schema of one's own: its `$vocabulary` says which vocabularies are on.
        guard let metaSchema = resolve(SchemaURI(declared)) else { throw .unknownMetaSchema(declared) }
        guard let vocabularies = metaSchema.node["$vocabulary"]?.members else { return metaSchema.dialect }
        var on: Set<SchemaDialect.Vocabulary> = []
        for member in vocabularies {
            if let vocabulary = SchemaDialect.Vocabulary.allCases.first(where: { $0.uri == member.key }) {
                on.insert(vocabulary)
            } else if case .bool(true) = member.value {
                throw .unknownRequiredVocabulary(member.key)
            }
        }
        return SchemaDialect(draft2020_12With: on)
    }

    private mutating func index(_ node: JSON, base: SchemaURI, dialect: SchemaDialect, depth: Int) throws(SchemaProblem) {
        guard depth < Self.maxDepth else { throw .tooDeep }
        guard case .object(let members) = node else { return }
        let dialect = try self.dialect(of: node, inheriting: dialect)
        var base = base
        if let identifier = Self.identifier(of: node, in: dialect) {
            if dialect.draft == .draft7, identifier.hasPrefix("#") {
                anchors[base.withoutFragment.description + identifier] = Located(node: node, base: base, dialect: dialect)
            } else {
                let resolved = base.resolving(identifier)
                base = resolved.withoutFragment
                resources[base.description] = Located(node: node, base: base, dialect: dialect)
                if let fragment = resolved.fragment, !fragment.isEmpty {
                    anchors[base.description + "#" + fragment] = Located(node: node, base: base, dialect: dialect)
                }
            }
        }
        if dialect.draft == .draft2020_12 {
            if let anchor = node["$anchor"]?.string {
                anchors[base.description + "#" + anchor] = Located(node: node, base: base, dialect: dialect)
            }
            if let anchor = node["$dynamicAnchor"]?.string {
                anchors[base.description + "#" + anchor] = Located(node: node, base: base, dialect: dialect)
                dynamicAnchors.insert(base.description + "#" + anchor)
            }
        }
        for member in members {
            guard let shape = dialect.subschemaShape(of: member.key) else { continue }
            for subschema in Self.subschemas(of: member.value, shape: shape) {
                try index(subschema, base: base, dialect: dialect, depth: depth + 1)
            }
        }
    }

    /// The `$id` that makes `node` a resource (draft-07 ignores one beside `$ref`).
    static func identifier(of node: JSON, in dialect: SchemaDialect) -> String? {
        guard let identifier = node["$id"]?.string else { return nil }
        if dialect.draft == .draft7, node["$ref"] != nil { return nil }
        return identifier
    }

    static func subschemas(of value: JSON, shape: SchemaDialect.SubschemaShape) -> [JSON] {
        switch (shape, value) {
        case (.one, _): return [value]
        case (.array, .array(let elements)), (.oneOrArray, .array(let elements)): return elements
        case (.oneOrArray, _): return [value]
        case (.map, .object(let members)): return members.map(\.value)
        case (.mapOfSchemasOrArrays, .object(let members)): return members.map(\.value).filter { $0.elements == nil }
        default: return []
        }
    }

    /// The schema `uri` names: a resource, an anchor in one, or a JSON Pointer into one.
    package func resolve(_ uri: SchemaURI) -> Located? {
        let resource = uri.withoutFragment.description
        guard let fragment = uri.fragment, !fragment.isEmpty else { return resources[resource] }
        let decoded = fragment.removingPercentEncoding ?? fragment
        guard decoded.hasPrefix("/") else { return anchors[resource + "#" + fragment] }
        guard let root = resources[resource], let tokens = JSONPointer.tokens(decoded) else { return nil }
        return Self.follow(tokens, from: root)
    }

    /// Whether `uri` (with a plain-name fragment) is a `$dynamicAnchor`.
    package func isDynamicAnchor(_ uri: SchemaURI) -> Bool {
        dynamicAnchors.contains(uri.description)
    }

    /// Follows a pointer's tokens from a schema, tracking the base URI and dialect through every
    /// schema it passes (an `$id` on the way changes the base).
    private static func follow(_ tokens: [String], from root: Located) -> Located? {
        var node = root.node, base = root.base, dialect = root.dialect
        // What the node reached holds: a schema, a container of schemas, or plain data.
        enum Position { case schema, container, data }
        var position = Position.schema
        for token in tokens {
            let next: JSON?
            switch node {
            case .object(let members): next = members.first { $0.key == token }?.value
            case .array(let elements): next = Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: next = nil
            }
            guard let next else { return nil }
            switch position {
            case .schema:
                switch dialect.subschemaShape(of: token) {
                case .one?: position = .schema
                case .oneOrArray?: position = next.elements == nil ? .schema : .container
                case .array?, .map?, .mapOfSchemasOrArrays?: position = .container
                case nil: position = .data
                }
            case .container: position = .schema
            case .data: position = .data
            }
            node = next
            if position == .schema, case .object = node {
                if let declared = node["$schema"]?.string, let known = SchemaDialect.named(declared) { dialect = known }
                if let identifier = identifier(of: node, in: dialect), !(dialect.draft == .draft7 && identifier.hasPrefix("#")) {
                    base = base.resolving(identifier).withoutFragment
                }
            }
        }
        return Located(node: node, base: base, dialect: dialect)
    }
}

/// Why a schema cannot be used.
package enum SchemaProblem: Error, Equatable, Sendable, CustomStringConvertible {
    case tooDeep
    case unknownMetaSchema(String)
    case unknownRequiredVocabulary(String)
    case unresolvableReference(String)
    case invalidPattern(String)
    case tooCostly
    /// A pattern could not decide within the evaluation's `MatchBudget`.
    case patternTooCostly(String)
    case notJSON(String)
    case instanceNotJSON(String)

    package var description: String {
        switch self {
        case .tooDeep: "the schema nests deeper than \(SchemaRegistry.maxDepth) levels"
        case .unknownMetaSchema(let uri): "$schema names \(uri), which is neither a known dialect nor a registered meta-schema"
        case .unknownRequiredVocabulary(let uri): "the meta-schema requires the vocabulary \(uri), which is not supported"
        case .unresolvableReference(let uri): "the reference \(uri) names no registered schema"
        case .invalidPattern(let pattern): "the regular expression \(pattern) does not compile"
        case .tooCostly: "evaluation nests deeper than \(SchemaRegistry.maxDepth) schemas (a reference cycle?) or evaluates more than \(SchemaValidator.maxEvaluations)"
        case .patternTooCostly(let pattern): "the regular expression \(pattern) could not decide within the evaluation's budget"
        case .notJSON(let why): "the schema is not JSON: \(why)"
        case .instanceNotJSON(let why): "the instance is not JSON: \(why)"
        }
    }
}

extension SchemaRegistry {
    /// Parses a schema document (or an instance) with the registry's limits: nesting at most
    /// `maxDepth` deep, strings of any number of combining marks in a row.
    package static func parse(_ bytes: [UInt8]) throws(SchemaProblem) -> JSON {
        do throws(JSONParseError) {
            return try JSONParser.parse(bytes, maxDepth: maxDepth, marksInARow: Int.max)
        } catch {
            throw .notJSON(error.description)
        }
    }

    /// A registry holding the meta-schemas of draft 2020-12 (and its vocabularies) and draft-07,
    /// which ship inside the binary (`MetaSchemas.swift`).
    package static let withMetaSchemas: SchemaRegistry = {
        var registry = SchemaRegistry()
        for (uri, text) in metaSchemaTexts + [(signupVocabularyURI, signupVocabularyText)] {
            // The texts are generated from published documents and checked by the tests: failing
            // to read one is a programming error.
            let document = try! JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
            let dialect = SchemaDialect.named(document["$schema"]?.string ?? "") ?? .draft2020_12
            try! registry.add(document, at: uri, dialect: dialect)
        }
        return registry
    }()
}
