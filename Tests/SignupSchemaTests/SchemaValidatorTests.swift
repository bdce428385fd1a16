import SignupCore
import SignupProtocol
@testable import SignupSchema
import Testing

/// The validator's output, its reading of numbers, strings and patterns, and its limits against
/// hostile schemas. Conformance as a whole is the JSON-Schema-Test-Suite's, through
/// `Scripts/json-schema-suite` (CI requires every required test of draft 2020-12 and draft-07).
@Suite struct SchemaValidatorTests {
    private func json(_ text: String) throws -> JSON { try SchemaRegistry.parse(Array(text.utf8)) }

    private func validator(_ schema: String, dialect: SchemaDialect = .draft2020_12, formats: Bool = false) throws -> SchemaValidator {
        try SchemaValidator(json(schema), dialect: dialect, registry: .withMetaSchemas, assertsFormats: formats)
    }

    private func errors(_ schema: String, _ instance: String) throws -> [String] {
        try validator(schema).validate(json(instance)).errors.map { "\($0.keywordLocation) at \($0.instanceLocation): \($0.keyword)" }
    }

    @Test func everyErrorIsReportedWithItsKeywordAndInstanceLocationInOrder() throws {
        let schema = #"""
            {"type":"object","properties":{"name":{"type":"string","minLength":3},"age":{"type":"integer","minimum":18},"email":{}},
             "required":["name","email"],"additionalProperties":false}
            """#
        #expect(try errors(schema, #"{"name":"Al","age":17.5,"x~/y":1}"#) == [
            "/properties/name/minLength at /name: minLength",
            "/properties/age/type at /age: type",
            "/properties/age/minimum at /age: minimum",
            "/additionalProperties at /x~0~1y: false",
            "/required at : required",
        ])
        #expect(try errors(schema, #"{"name":"Ada","age":36,"email":"ada@example.com"}"#) == [])
        let output = try validator(schema).validate(json(#"{"name":"Ada"}"#))
        #expect(!output.valid && output.errors.map(\.value) == [.array([.string("name"), .string("email")])])
    }

    /// An `anyOf` that passes keeps no error of its failing branches; a `oneOf` of two says so.
    @Test func aPassingApplicatorDropsItsBranchesErrors() throws {
        #expect(try errors(#"{"anyOf":[{"type":"string"},{"minimum":2}]}"#, "3") == [])
        #expect(try errors(#"{"anyOf":[{"type":"string"},{"minimum":2}]}"#, "1") == ["/anyOf/0/type at : type", "/anyOf/1/minimum at : minimum"])
        #expect(try errors(#"{"oneOf":[{"minimum":2},{"maximum":5}]}"#, "3") == ["/oneOf at : oneOf"])
    }

    @Test func lengthsCountCodePointsAndStringsCompareByCodePoint() throws {
        // 😀 is one code point (two UTF-16 units); é decomposed is two code points.
        #expect(try errors(#"{"maxLength":1}"#, #""😀""#) == [])
        #expect(try errors(#"{"maxLength":1}"#, #""e\u0301""#) == ["/maxLength at : maxLength"])
        // Precomposed and decomposed é are equal for Swift, not for JSON Schema.
        #expect(try errors(#"{"const":"\u00e9"}"#, #""e\u0301""#) == ["/const at : const"])
        #expect(try errors(#"{"uniqueItems":true}"#, #"["\u00e9","e\u0301",1,1.0]"#) == ["/uniqueItems at : uniqueItems"])
        #expect(try errors(#"{"uniqueItems":true}"#, #"["\u00e9","e\u0301",{"a":1,"b":[2]},{"b":[2.0],"a":1e0}]"#) == ["/uniqueItems at : uniqueItems"])
        #expect(try errors(#"{"uniqueItems":true}"#, #"["\u00e9","e\u0301",{"a":1},{"a":true}]"#) == [])
    }

    @Test func numbersAreReadByValue() throws {
        #expect(try errors(#"{"type":"integer"}"#, "1.0") == [])
        #expect(try errors(#"{"type":"integer"}"#, "1e2") == [])
        #expect(try errors(#"{"multipleOf":0.01}"#, "0.07") == [])
        #expect(try errors(#"{"multipleOf":0.123456789}"#, "1e308") == ["/multipleOf at : multipleOf"])
        #expect(try errors(#"{"maximum":12345678901234567890}"#, "12345678901234567891") == ["/maximum at : maximum"])
        #expect(try errors(#"{"enum":[1]}"#, "1.00") == [])
    }

    /// Patterns search, unanchored; `\d` and `\w` are ASCII and `$` is the very end, as in ECMA-262.
    @Test func patternsAreReadAsECMA262ReadsThem() throws {
        #expect(try errors(#"{"pattern":"b"}"#, #""abc""#) == [])
        #expect(try errors(#"{"pattern":"^\\d+$"}"#, #""123""#) == [])
        #expect(try errors(#"{"pattern":"^\\d+$"}"#, #""١٢٣""#) == ["/pattern at : pattern"])
        #expect(try errors(#"{"pattern":"^\\w+$"}"#, #""é""#) == ["/pattern at : pattern"])
        #expect(try errors(#"{"pattern":"^abc$"}"#, #""abc\n""#) == ["/pattern at : pattern"])
        #expect(try errors(#"{"pattern":"[\\d]"}"#, #""٣""#) == ["/pattern at : pattern"])
        #expect(throws: SchemaProblem.invalidPattern("(")) { try errors(#"{"pattern":"("}"#, #""a""#) }
    }

    @Test func formatsAnnotateUnlessAsserted() throws {
        let schema = #"{"format":"email"}"#
        #expect(try validator(schema).validate(json(#""not an address""#)).valid)
        #expect(try !validator(schema, formats: true).validate(json(#""not an address""#)).valid)
        #expect(try validator(schema, formats: true).validate(json(#""ann@bücher.de""#)).valid)
        let cases: [(String, String, Bool)] = [
            ("date", "2024-02-29", true), ("date", "2023-02-29", false), ("time", "23:59:60Z", true), ("time", "12:00:60Z", false),
            ("date-time", "2024-01-01T10:00:00+01:00", true), ("duration", "P1DT2H", true), ("duration", "PT", false),
            ("ipv4", "192.168.0.1", true), ("ipv4", "01.2.3.4", false), ("ipv6", "::1", true), ("hostname", "-a.com", false),
            ("idn-hostname", "bücher.de", true), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true),
            ("uri", "https://example.com/a?b#c", true), ("uri", "//example.com", false), ("uri-reference", "//example.com", true),
            ("json-pointer", "/a~1b", true), ("json-pointer", "/a~2", false), ("regex", "^a(", false), ("unknown-format", "x", true),
        ]
        for (format, value, valid) in cases {
            let verdict = try validator(#"{"format":"\#(format)"}"#, formats: true).validate(.string(value)).valid
            #expect(verdict == valid, "\(format) \(value)")
        }
    }

    /// Draft-07 as Kratos writes it: `definitions`, `dependencies`, array `items`, `$ref` beside others.
    @Test func draft7IsReadAsDraft7() throws {
        let schema = ##"""
            {"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"integer"}},
             "properties":{"a":{"$ref":"#/definitions/n","type":"string"},"t":{"items":[{"type":"string"}],"additionalItems":false}},
             "dependencies":{"a":["b"]}}
            """##
        #expect(try errors(schema, #"{"a":1,"b":0,"t":["x"]}"#) == [])
        #expect(try errors(schema, #"{"a":1,"t":["x",2]}"#) == ["/properties/t/additionalItems at /t/1: false", "/dependencies at : dependencies"])
        #expect(try errors(##"{"$schema":"http://json-schema.org/draft-07/schema#","unevaluatedProperties":false}"##, #"{"a":1}"#) == [])
    }

    // MARK: Limits

    @Test func aSchemaNestedTooDeepIsRefused() throws {
        let deep = String(repeating: #"{"not":"#, count: 10_000) + "true" + String(repeating: "}", count: 10_000)
        #expect(throws: SchemaProblem.self) { try SchemaRegistry.parse(Array(deep.utf8)) }
        var nested = JSON.bool(true)
        for _ in 0..<(SchemaRegistry.maxDepth + 1) { nested = .object([JSON.Member(key: "not", value: nested)]) }
        #expect(throws: SchemaProblem.tooDeep) { try SchemaValidator(nested) }
    }

    @Test func aReferenceCycleThatReadsNoFurtherEndsAsTooCostly() throws {
        let cycle = try validator(##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##)
        #expect(throws: SchemaProblem.tooCostly) { try cycle.validate(.null) }
        // A recursive schema that reads deeper into the instance is no cycle.
        let tree = try validator(##"{"properties":{"child":{"$ref":"#"}},"required":["name"]}"##)
        #expect(try tree.validate(json(#"{"name":1,"child":{"name":2,"child":{}}}"#)).errors.map(\.instanceLocation) == ["/child/child"])
    }

    /// Ten references to ten references, eight deep: 10⁸ evaluations, stopped at 20 000.
    @Test func referencesThatFanOutAreStoppedByTheEvaluationCount() throws {
        var definitions: [String] = []
        for level in 0..<8 {
            let next = level == 7 ? #"{"type":"integer"}"# : "{\"$ref\":\"#/$defs/l\(level + 1)\"}"
            definitions.append("\"l\(level)\":{\"allOf\":[" + Array(repeating: next, count: 10).joined(separator: ",") + "]}")
        }
        let schema = "{\"$defs\":{" + definitions.joined(separator: ",") + "},\"$ref\":\"#/$defs/l0\"}"
        let fanOut = try validator(schema)
        #expect(throws: SchemaProblem.tooCostly) { try fanOut.validate(.number("1")) }
        // Four deep is 10⁴ evaluations, within the count.
        let shallow = try validator(schema.replacingOccurrences(of: "\"$ref\":\"#/$defs/l0\"", with: "\"$ref\":\"#/$defs/l4\""))
        #expect(try shallow.validate(.number("1")).valid)
    }

    @Test func aPathologicalPatternIsStoppedByItsBudget() throws {
        let pathological = try validator(#"{"pattern":"^(a+)+$"}"#)
        #expect(throws: SchemaProblem.patternTooCostly("^(a+)+$")) {
            try pathological.validate(.string(String(repeating: "a", count: 40) + "!"))
        }
    }

    @Test func largeEnumsAndArraysAreJudgedInOnePass() throws {
        let values = (0..<100_000).map { JSON.number(String($0)) }
        let schema = JSON.object([JSON.Member(key: "enum", value: .array(values))])
        let validator = try SchemaValidator(schema)
        #expect(try validator.validate(.number("99999.0")).valid)
        #expect(try !validator.validate(.number("100000")).valid)
        let unique = try SchemaValidator(json(#"{"uniqueItems":true}"#))
        #expect(try unique.validate(.array(values)).valid)
        #expect(try !unique.validate(.array(values + [.number("5e0")])).valid)
    }

    @Test func theMetaSchemasShipAndJudgeSchemas() throws {
        let meta = try validator(#"{"$ref":"https://json-schema.org/draft/2020-12/schema"}"#)
        #expect(try meta.validate(json(#"{"type":"string","minLength":1}"#)).valid)
        #expect(try meta.validate(json(#"{"minLength":-1}"#)).errors.map(\.keyword) == ["minimum"])
        let draft7 = try validator(##"{"$ref":"http://json-schema.org/draft-07/schema#"}"##)
        #expect(try !draft7.validate(json(#"{"type":"strin"}"#)).valid)
    }
}

extension SchemaValidatorTests {
    /// RFC 3986 §5.4's examples of resolution, and a `urn:` base.
    @Test func referencesResolveAsRFC3986Says() {
        let base = SchemaURI("http://a/b/c/d;p?q")
        let examples = [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
            ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("..", "http://a/b/"), ("../g", "http://a/b/g"), ("../../../g", "http://a/g"),
            ("/./g", "http://a/g"), ("g.", "http://a/b/c/g."), ("./../g", "http://a/b/g"), ("g;x=1/../y", "http://a/b/c/y"),
        ]
        for (reference, expected) in examples { #expect(base.resolving(reference).description == expected, "\(reference)") }
        #expect(SchemaURI("urn:example:root").resolving("#/$defs/a").description == "urn:example:root#/$defs/a")
        #expect(SchemaURI("tag:example.com,2024:schema").resolving("#x").description == "tag:example.com,2024:schema#x")
    }
}
