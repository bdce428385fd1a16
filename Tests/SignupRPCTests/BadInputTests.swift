import Foundation
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

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

/// The fuzz harness, built without libFuzzer, replays the seed corpus: every input runs through
/// line splitting, decoding and dispatch, and every output line must be well-formed JSON-RPC.
@Suite struct FuzzCorpusTests {
    @Test func theSeedCorpusReplaysCleanly() throws {
        let corpus = Subprocess.packageRoot.appendingPathComponent("Fuzz/corpus")
        let count = try FileManager.default.contentsOfDirectory(atPath: corpus.path).count
        #expect(count >= 100)
        let fuzzer = Subprocess.executable.deletingLastPathComponent().appendingPathComponent("signup-fuzz")
        let process = Process()
        process.executableURL = fuzzer
        process.arguments = [corpus.path]
        process.environment = Subprocess.environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.killIfStillRunning()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        #expect(message.contains("replayed \(count) inputs"))
    }

    @Test func theOutputCheckCatchesBrokenOutput() {
        #expect(InProcessServer.violation(in: Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}\n".utf8)) == nil)
        #expect(InProcessServer.violation(in: Array("{\"jsonrpc\":\"2.0\"\n".utf8)) != nil)
        #expect(InProcessServer.violation(in: Array("{\"id\":1}\n".utf8)) != nil)
        #expect(InProcessServer.violation(in: Array("{\"jsonrpc\":\"2.0\"}".utf8)) == "output does not end with a newline")
    }
}
