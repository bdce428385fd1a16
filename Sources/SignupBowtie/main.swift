import Foundation
import SignupCore
import SignupProtocol
import SignupSchema

// `signup-bowtie`: SignupRPC's JSON Schema validator as a Bowtie harness. It speaks Bowtie's IHOP
// version 1 on stdin and stdout, one JSON object a line: `start` (answered with the
// implementation's metadata), `dialect` (the dialect of schemas without `$schema`), `run` (a
// case: a schema, its registry of remote schemas, and instances; answered with each instance's
// verdict, `seq` echoed) and `stop`. A case that cannot be run is answered `errored` with why,
// and the next line is read. Diagnostics go to stderr only. `--assert-formats` makes `format` an
// assertion (the suite's optional/format tests); by default it is an annotation, as 2020-12 says.

let assertsFormats = CommandLine.arguments.dropFirst().contains("--assert-formats")

func send(_ body: (inout JSONWriter) -> Void) {
    var writer = JSONWriter()
    writer.object(body)
    writer.newline()
    writer.withBytes { FileHandle.standardOutput.write(Data($0)) }
}

/// The registry last built, and the case's `registry` and dialect it was built from: Bowtie sends
/// the same remotes with every case, and indexing them is most of a small case's work.
struct RegistryCache {
    var remotes: JSON = .null
    var dialect = SchemaDialect.draft2020_12
    var registry = SchemaRegistry.withMetaSchemas

    mutating func registry(for remotes: JSON, dialect: SchemaDialect) throws(SchemaProblem) -> SchemaRegistry {
        if remotes == self.remotes && dialect == self.dialect { return registry }
        var registry = SchemaRegistry.withMetaSchemas
        for member in remotes.members ?? [] {
            try registry.add(member.value, at: member.key, dialect: dialect)
        }
        (self.remotes, self.dialect, self.registry) = (remotes, dialect, registry)
        return registry
    }
}

/// Answers one command; false after `stop`. `dialect` is the one `dialect` last set.
func answer(_ request: JSON, dialect: inout SchemaDialect, cache: inout RegistryCache) -> Bool {
    switch request["cmd"]?.string {
    case "start":
        send { writer in
            writer.key("version"); writer.int(1)
            writer.key("ready"); writer.bool(true)
            writer.key("implementation")
            writer.object { writer in
                writer.key("language"); writer.string("swift")
                writer.key("name"); writer.string("signup-rpc")
                writer.key("version"); writer.string("0.1.0")
                writer.key("homepage"); writer.string("https://github.com/signup-rpc/signup-rpc")
                writer.key("issues"); writer.string("https://github.com/signup-rpc/signup-rpc/issues")
                writer.key("source"); writer.string("https://github.com/signup-rpc/signup-rpc")
                writer.key("dialects")
                writer.array { writer in
                    writer.string(SchemaDialect.draft2020_12URI)
                    writer.string(SchemaDialect.draft7URI + "#")
                }
            }
        }
    case "dialect":
        dialect = request["dialect"]?.string.flatMap(SchemaDialect.named) ?? dialect
        send { writer in writer.key("ok"); writer.bool(true) }
    case "run":
        let seq = request["seq"] ?? .null
        do throws(SchemaProblem) {
            guard let testCase = request["case"], let schema = testCase["schema"], let tests = testCase["tests"]?.elements else {
                throw .unresolvableReference("the run command has no case")
            }
            let registry = try cache.registry(for: testCase["registry"] ?? .null, dialect: dialect)
            let validator = try SchemaValidator(schema, at: "urn:signup-bowtie:case", dialect: dialect, registry: registry,
                                                assertsFormats: assertsFormats)
            var verdicts: [Bool] = []
            for test in tests {
                verdicts.append(try validator.validate(test["instance"] ?? .null).valid)
            }
            send { writer in
                writer.key("seq"); writer.json(seq)
                writer.key("results")
                writer.array { writer in
                    for verdict in verdicts { writer.object { writer in writer.key("valid"); writer.bool(verdict) } }
                }
            }
        } catch {
            send { writer in
                writer.key("seq"); writer.json(seq)
                writer.key("errored"); writer.bool(true)
                writer.key("context")
                writer.object { writer in writer.key("message"); writer.string(error.description) }
            }
        }
    case "stop":
        return false
    default:
        FileHandle.standardError.write(Data("signup-bowtie: unknown command\n".utf8))
    }
    return true
}

var dialect = SchemaDialect.draft2020_12
var cache = RegistryCache()
while let line = readLine(strippingNewline: true) {
    guard !line.isEmpty else { continue }
    do throws(JSONParseError) {
        let request = try JSONParser.parse(Array(line.utf8), maxDepth: SchemaRegistry.maxDepth + 8, marksInARow: Int.max)
        if !answer(request, dialect: &dialect, cache: &cache) { break }
    } catch {
        FileHandle.standardError.write(Data("signup-bowtie: a line is not JSON: \(error)\n".utf8))
    }
}
