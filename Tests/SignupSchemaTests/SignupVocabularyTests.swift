import SignupCore
import Foundation
import SignupProtocol
@testable import SignupSchema
import Testing

/// SignupRPC's form vocabulary (issue 55 §3): its meta-schema ships inside the binary as
/// `schemas/` publishes it, a schema naming it is draft 2020-12 with the optional vocabulary
/// ignored by validation, and the meta-schema checks `signupRPC` in every subschema.
@Suite struct SignupVocabularyTests {
    @Test func theShippedMetaSchemaIsThePublishedOne() throws {
        let published = try #require(FileManager.default.contents(atPath: "schemas/signup-vocabulary.schema.json"))
        let shipped = try SchemaRegistry.parse(Array(SchemaRegistry.signupVocabularyText.utf8))
        #expect(try SchemaRegistry.parse(Array(published)).isSchemaEqual(to: shipped))
        #expect(shipped["$id"]?.string == SchemaRegistry.signupVocabularyURI)
    }

    @Test func aSchemaInTheVocabularyValidatesAsDraft2020AndItsKeywordIsChecked() throws {
        let schema = try SchemaRegistry.parse(Array(#"{"$schema":"https://signup-rpc.invalid/schemas/signup-vocabulary.schema.json","type":"string","minLength":2,"signupRPC":{"input":"name"}}"#.utf8))
        let validator = try SchemaValidator(schema, registry: .withMetaSchemas)
        #expect(try validator.validate(.string("ab")).valid && !validator.validate(.string("a")).valid)
        let meta = try SchemaValidator(.object([JSON.Member(key: "$ref", value: .string(SchemaRegistry.signupVocabularyURI))]), registry: .withMetaSchemas)
        #expect(try meta.validate(schema).valid)
        let wrong = try SchemaRegistry.parse(Array(#"{"properties":{"a":{"items":{"signupRPC":{"normalization":"nfd"}}}}}"#.utf8))
        #expect(try meta.validate(wrong).errors.map(\.instanceLocation) == ["/properties/a/items/signupRPC/normalization"])
    }
}
