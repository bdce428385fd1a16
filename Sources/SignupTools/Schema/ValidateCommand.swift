import SignupCore
import Foundation
import SignupProtocol
import SignupSchema
import SignupServer

/// `signup-rpc validate SCHEMA`: each line of stdin is a JSON instance, judged against the schema
/// in SCHEMA; each gets one line on stdout, its output in the format asked (`flag`:
/// `{"valid":…}`; `basic`, `detailed`: protocol.md §17). A line that is not JSON, or that the
/// schema cannot judge (a limit), gets `{"error":WHY}` and the next line is read. Exits 0 at the
/// end of input; 66 when SCHEMA cannot be read; 65 when it is not a usable schema.
///
/// The registry holds the meta-schemas and every `.json` file in SCHEMA's folder, each at its
/// `file://` URI (and its `$id`), so references between the files of one folder resolve.
package enum ValidateCommand {
    @Sendable package static func run(_ request: ValidateRequest) -> Never {
        guard let bytes = FileManager.default.contents(atPath: request.schemaPath) else {
            fail("cannot read the schema '\(request.schemaPath)'", exitCode: 66)
        }
        let dialect: SchemaDialect = request.draft == "7" ? .draft7 : .draft2020_12
        let validator: SchemaValidator
        do throws(SchemaProblem) {
            let document = try SchemaRegistry.parse(Array(bytes))
            let file = URL(fileURLWithPath: request.schemaPath).standardizedFileURL
            var registry = SchemaRegistry.withMetaSchemas
            let folder = file.deletingLastPathComponent()
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            where name.hasSuffix(".json") && name != file.lastPathComponent {
                // A file beside it that is not a schema is left out, not an error.
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                      let sibling = try? SchemaRegistry.parse(Array(data)) else { continue }
                _ = try? registry.add(sibling, at: "file://" + folder.appendingPathComponent(name).path, dialect: dialect)
            }
            validator = try SchemaValidator(document, at: "file://" + file.path, dialect: dialect, registry: registry,
                                            assertsFormats: request.assertsFormats)
        } catch {
            fail("\(request.schemaPath): \(error.description)", exitCode: 65)
        }
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            var writer = JSONWriter()
            do throws(SchemaProblem) {
                let instance: JSON
                do throws(JSONParseError) {
                    instance = try JSONParser.parse(Array(line.utf8), maxDepth: SchemaRegistry.maxDepth, marksInARow: Int.max)
                } catch {
                    throw .instanceNotJSON(error.description)
                }
                let output = try validator.validate(instance)
                switch request.output {
                case .flag: writer.json(.object([JSON.Member(key: "valid", value: .bool(output.valid))]))
                case .basic: writer.json(output.basic)
                case .detailed: writer.json(output.detailed)
                }
            } catch {
                writer.json(.object([JSON.Member(key: "error", value: .string(error.description))]))
            }
            writer.newline()
            writer.withBytes { FileHandle.standardOutput.write(Data($0)) }
        }
        exit(0)
    }

    private static func fail(_ message: String, exitCode: Int32) -> Never {
        FileHandle.standardError.write(Data("signup-rpc: \(message)\n".utf8))
        exit(exitCode)
    }
}
