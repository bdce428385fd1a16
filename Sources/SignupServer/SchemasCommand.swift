import Foundation
import SignupProtocol

/// `signup-rpc schemas DIR [--check]`: the protocol's documents as this build's message types
/// give them (`SchemaDocuments`), written into DIR, or compared with the files there.
enum SchemasCommand {
    static func run(directory: String, check: Bool) -> Never {
        var differing: [String] = []
        for (name, text) in SchemaDocuments.files {
            let path = (directory as NSString).appendingPathComponent(name)
            if check {
                if FileManager.default.contents(atPath: path) != Data(text.utf8) { differing.append(path) }
            } else if !FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) {
                SignupRPCCommand.fail("cannot write '\(path)'", exitCode: 73)
            }
        }
        guard differing.isEmpty else {
            let names = differing.joined(separator: ", ")
            SignupRPCCommand.fail("not what this build's message types give: \(names) (write them with `signup-rpc schemas \(directory)`)", exitCode: 1)
        }
        exit(0)
    }
}
