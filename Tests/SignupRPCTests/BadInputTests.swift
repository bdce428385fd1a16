import Foundation
import Testing

/// Every file of the bad-input corpus gets its exact documented answer, and the valid request
/// after it is still served.
@Suite struct BadInputTests {
    static let folder = Subprocess.packageRoot.appendingPathComponent("Tests/SignupRPCTests/BadInput")
    static let probe = #"{"jsonrpc":"2.0","id":"probe","method":"clock.advance","params":{"by":0}}"#

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(".jsonl".count)) }.sorted()
    }()

    @Test func theCorpusHasAtLeastSixtyCases() {
        #expect(Self.cases.count >= 60)
    }

    @Test(arguments: cases)
    func theAnswerIsExactAndTheNextLineIsServed(name: String) throws {
        func file(_ suffix: String) -> URL { Self.folder.appendingPathComponent(name + suffix) }
        let flags = (try? String(contentsOf: file(".flags"), encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).map(String.init) ?? []
        let probe = (try? String(contentsOf: file(".probe"), encoding: .utf8))?
            .trimmingCharacters(in: .newlines) ?? Self.probe
        let input = try Data(contentsOf: file(".jsonl")) + Data("\n\(probe)\n".utf8)
        let expected = try String(contentsOf: file(".out"), encoding: .utf8)
        let expectedErrors = (try? String(contentsOf: file(".err"), encoding: .utf8)) ?? ""

        let output = try Subprocess.run(["--clock", "virtual", "--log-level", "warning"] + flags, input: input)
        #expect(output.status == 0)
        #expect(output.stdout == expected)
        #expect(output.stderr == expectedErrors)
        #expect(output.lines.last?.contains(#""id":"probe""#) == true)
    }
}
