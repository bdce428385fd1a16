import Foundation
import Testing

/// Runs every example exchange in protocol.md through the real binary, so the document cannot
/// drift from the code.
@Suite struct ProtocolDocumentTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var line: Int
        var arguments: [String]
        var input: [String]
        var output: [String]
        var testDescription: String { "protocol.md line \(line)" }
    }

    static let examples: [Example] = {
        let url = Subprocess.packageRoot.appendingPathComponent("protocol.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var current: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line == "```example" {
                current = Example(line: index + 1, arguments: [], input: [], output: [])
            } else if line == "```", let example = current {
                examples.append(example)
                current = nil
            } else if current != nil {
                if line.hasPrefix("$ signup-rpc") {
                    // Paths in examples are the package root's; made absolute, as the tests run elsewhere.
                    current!.arguments = line.dropFirst("$ signup-rpc".count).split(separator: " ").map(String.init).map {
                        $0.hasPrefix("Examples/") ? Subprocess.packageRoot.appendingPathComponent($0).path : $0
                    }
                } else if line.hasPrefix("→ ") {
                    current!.input.append(String(line.dropFirst(2)))
                } else if line.hasPrefix("← ") {
                    current!.output.append(String(line.dropFirst(2)))
                }
            }
        }
        return examples
    }()

    @Test func theDocumentHasAnExampleForEveryMethod() {
        #expect(Self.examples.count >= 10)
        let sent = Self.examples.flatMap(\.input).joined(separator: "\n")
        for method in ["initialize", "shutdown", "exit", "form.open", "form.edit", "form.submit",
                       "form.snapshot", "form.close", "clock.advance"] {
            #expect(sent.contains(#""method":"\#(method)""#), "no example sends \(method)")
        }
    }

    @Test(arguments: examples)
    func theExampleMatchesTheServersOutput(example: Example) throws {
        let output = try Subprocess.run(example.arguments, input: example.input.joined(separator: "\n") + "\n")
        #expect(output.lines == example.output)
    }
}
