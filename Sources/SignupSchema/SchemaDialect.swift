/// Which JSON Schema a schema is written in: the draft, and for draft 2020-12 the vocabularies
/// its meta-schema's `$vocabulary` turns on (a keyword of a vocabulary that is off is ignored).
package struct SchemaDialect: Hashable, Sendable {
    package enum Draft: Hashable, Sendable {
        case draft2020_12
        case draft7
    }

    package enum Vocabulary: String, CaseIterable, Hashable, Sendable {
        case core, applicator, unevaluated, validation, metaData = "meta-data", formatAnnotation = "format-annotation"
        case formatAssertion = "format-assertion", content

        package var uri: String { "https://json-schema.org/draft/2020-12/vocab/" + rawValue }
    }

    package let draft: Draft
    package let vocabularies: Set<Vocabulary>

    package static let draft2020_12 = SchemaDialect(
        draft: .draft2020_12, vocabularies: Set(Vocabulary.allCases).subtracting([.formatAssertion]))
    package static let draft7 = SchemaDialect(draft: .draft7, vocabularies: Set(Vocabulary.allCases).subtracting([.unevaluated, .formatAssertion]))

    package static let draft2020_12URI = "https://json-schema.org/draft/2020-12/schema"
    package static let draft7URI = "http://json-schema.org/draft-07/schema"

    /// The dialect a `$schema` value names, if it is one of the two known by URI.
    package static func named(_ uri: String) -> SchemaDialect? {
        let bare = uri.hasSuffix("#") ? String(uri.dropLast()) : uri
        switch bare {
        case draft2020_12URI: return .draft2020_12
        case draft7URI, "https://json-schema.org/draft-07/schema": return .draft7
        default: return nil
        }
    }

    /// A 2020-12 dialect with only `vocabularies` (core is always on).
    package init(draft2020_12With vocabularies: Set<Vocabulary>) {
        draft = .draft2020_12
        self.vocabularies = vocabularies.union([.core])
    }

    private init(draft: Draft, vocabularies: Set<Vocabulary>) {
        self.draft = draft
        self.vocabularies = vocabularies
    }

    /// Where subschemas stand in a schema object of this dialect, by keyword.
    package func subschemaShape(of keyword: String) -> SubschemaShape? {
        switch draft {
        case .draft2020_12:
            switch keyword {
            case "$defs", "properties", "patternProperties", "dependentSchemas": return .map
            case "allOf", "anyOf", "oneOf", "prefixItems": return .array
            case "items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not",
                 "unevaluatedItems", "unevaluatedProperties", "contentSchema": return .one
            // Draft 2019-09's spelling, still found beside 2020-12 documents.
            case "definitions": return .map
            default: return nil
            }
        case .draft7:
            switch keyword {
            case "definitions", "properties", "patternProperties": return .map
            case "dependencies": return .mapOfSchemasOrArrays
            case "allOf", "anyOf", "oneOf": return .array
            case "items": return .oneOrArray
            case "additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not": return .one
            default: return nil
            }
        }
    }

    package enum SubschemaShape {
        case one, array, map, oneOrArray, mapOfSchemasOrArrays
    }
}
