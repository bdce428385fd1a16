import Foundation
import SignupTestSupport
import Testing

/// `signup-rpc validate SCHEMA` (protocol.md §17): one output line per instance line, in the
/// format asked; a line that is not JSON is answered and the next one served; a schema that
/// cannot be read or used ends the command with its exit code before any line is read.
@Suite struct ValidateCommandTests {
    static let schema = #"{"type":"object","properties":{"name":{"type":"string","minLength":3},"age":{"type":"integer","minimum":18}},"required":["name"]}"#

    @Test func eachInstanceGetsItsOutputInTheFormatAsked() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("person.schema.json")
        try Data(Self.schema.utf8).write(to: URL(fileURLWithPath: path))
        let input = #"{"name":"Al","age":17.5}"# + "\n" + #"{"name":"Ada"}"# + "\nnot json\n\n" + #"{"age":20}"# + "\n"
        let basic = try Subprocess.run(["validate", path], input: input)
        #expect(basic.status == 0 && basic.stderr.isEmpty)
        #expect(basic.lines == [
            #"{"valid":false,"errors":[{"valid":false,"keywordLocation":"/properties/name/minLength","instanceLocation":"/name","error":"must have at least 3 characters"},{"valid":false,"keywordLocation":"/properties/age/type","instanceLocation":"/age","error":"must be integer"},{"valid":false,"keywordLocation":"/properties/age/minimum","instanceLocation":"/age","error":"must be at least 18"}]}"#,
            #"{"valid":true}"#,
            #"{"error":"the instance is not JSON: invalid literal (expected true, false or null)"}"#,
            #"{"valid":false,"errors":[{"valid":false,"keywordLocation":"/required","instanceLocation":"","error":"must have name"}]}"#,
        ])
        let flag = try Subprocess.run(["validate", path, "--output", "flag"], input: input)
        #expect(flag.lines == [#"{"valid":false}"#, #"{"valid":true}"#, basic.lines[2], #"{"valid":false}"#])
        let detailed = try Subprocess.run(["validate", path, "--output", "detailed"], input: input)
        #expect(detailed.lines.first == #"{"valid":false,"keywordLocation":"","instanceLocation":"","errors":[{"valid":false,"keywordLocation":"/properties/name/minLength","instanceLocation":"/name","error":"must have at least 3 characters"},{"valid":false,"keywordLocation":"/properties/age","instanceLocation":"/age","errors":[{"valid":false,"keywordLocation":"/properties/age/type","instanceLocation":"/age","error":"must be integer"},{"valid":false,"keywordLocation":"/properties/age/minimum","instanceLocation":"/age","error":"must be at least 18"}]}]}"#)
        #expect(detailed.lines[3] == #"{"valid":false,"keywordLocation":"","instanceLocation":"","errors":[{"valid":false,"keywordLocation":"/required","instanceLocation":"","error":"must have name"}]}"#)
    }

    /// The files of the schema's folder are its registry: a relative `$ref` to one resolves.
    @Test func referencesToTheSchemasBesideItResolve() throws {
        let folder = try TemporaryDirectory()
        try Data(#"{"type":"object","properties":{"home":{"$ref":"address.schema.json"}},"required":["home"]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.path("person.schema.json")))
        try Data(#"{"$id":"https://example.com/address","type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.path("address.schema.json")))
        try Data("not json".utf8).write(to: URL(fileURLWithPath: folder.path("notes.json")))
        let output = try Subprocess.run(["validate", folder.path("person.schema.json"), "--output", "flag"],
                                        input: #"{"home":{"city":"Oslo"}}"# + "\n" + #"{"home":{"city":""}}"# + "\n")
        #expect(output.lines == [#"{"valid":true}"#, #"{"valid":false}"#], "\(output.stderr)")
    }

    @Test func aSchemaThatCannotBeReadOrUsedEndsTheCommandWithItsCode() throws {
        let folder = try TemporaryDirectory()
        let missing = try Subprocess.run(["validate", folder.path("absent.json")], input: "")
        #expect(missing.status == 66 && missing.stdout.isEmpty && missing.stderr.contains("cannot read the schema"))
        let unusable = folder.path("unusable.json")
        try Data(#"{"$schema":"https://example.com/unknown-meta"}"#.utf8).write(to: URL(fileURLWithPath: unusable))
        let refused = try Subprocess.run(["validate", unusable], input: "")
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("neither a known dialect nor a registered meta-schema"))
        let usage = try Subprocess.run(["validate", unusable, "--draft", "4"], input: "")
        #expect(usage.status == 64 && usage.stderr.contains("--draft takes 2020-12 or 7"))
    }
}
