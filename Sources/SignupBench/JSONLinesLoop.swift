import Foundation

/// A plain JSON-lines loop doing a keystroke's work as signup-rpc does it (reading the request,
/// judging the field's local rules, writing `form.fieldChanged` and the response), in another
/// language: figure 2's round trip is measured beside each. The loops are in
/// `Scripts/bench-loops/`; one whose interpreter is not installed is left out, and said so.
struct JSONLinesLoop {
    let name: String
    let executable: String
    let arguments: [String]

    /// The loops of this checkout whose interpreters are on `PATH`; the names of those that are not.
    static func available() -> (loops: [JSONLinesLoop], missing: [String]) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/bench-loops")
        var loops: [JSONLinesLoop] = []
        var missing: [String] = []
        for (name, interpreter, script) in [("Python", "python3", "jsonlines.py"), ("Node", "node", "jsonlines.mjs")] {
            let path = folder.appendingPathComponent(script).path
            if let executable = onPath(interpreter), FileManager.default.fileExists(atPath: path) {
                loops.append(JSONLinesLoop(name: name, executable: executable, arguments: [path]))
            } else {
                missing.append(name)
            }
        }
        return (loops, missing)
    }

    private static func onPath(_ command: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
