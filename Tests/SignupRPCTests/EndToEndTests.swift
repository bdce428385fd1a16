import Foundation
import Testing

/// The built binary, spawned as frontends spawn it.
@Suite struct EndToEndTests {
    static let fixtures: [String] = {
        let folder = Subprocess.packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".out.jsonl") }
            .map { String($0.dropLast(".jsonl".count)) }.sorted()
    }()

    @Test func everyExampleHasItsExpectedOutput() {
        #expect(Self.fixtures.count >= 4)
        #expect(Self.fixtures.contains("signup"))
    }

    @Test(arguments: fixtures)
    func exampleFixturesGiveTheirExpectedOutputByteForByte(name: String) throws {
        let folder = Subprocess.packageRoot.appendingPathComponent("Examples")
        let input = try Data(contentsOf: folder.appendingPathComponent("\(name).jsonl"))
        let expected = try String(contentsOf: folder.appendingPathComponent("\(name).out.jsonl"), encoding: .utf8)
        let flagsFile = folder.appendingPathComponent("\(name).flags")
        let extraFlags = (try? String(contentsOf: flagsFile, encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).map(String.init) ?? []
        let first = try Subprocess.run(["--clock", "virtual"] + extraFlags, input: input)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(first.stdout == expected)
        let second = try Subprocess.run(["--clock", "virtual"] + extraFlags, input: input)
        #expect(second.stdout == first.stdout, "virtual-clock output must be byte-identical run to run")
    }

    @Test func zeroSetupPipingAddressesTheDefaultSignupForm() throws {
        let output = try Subprocess.run([], input: #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}"# + "\n")
        #expect(output.status == 0)
        let codes = output.lines.compactMap { line -> String? in
            guard let range = line.range(of: #""code":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(codes == ["username.empty", "password.empty", "repeatedPassword.empty",
                          "username.checking", "username.available"])
    }

    @Test func diagnosticsGoToStderrNeverToTheProtocolStream() throws {
        let output = try Subprocess.run(["--clock", "virtual", "--log-level", "warning"],
                                        input: #"{"jsonrpc":"2.0","method":"nope"}"# + "\n")
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "signup-rpc: warning: notification nope failed: Method not found: nope\n")
    }

    @Test func crlfByteOrderMarkBlankLinesAndATruncatedLastLine() throws {
        let input = Data([0xEF, 0xBB, 0xBF]) + Data((#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":1}}"# + "\r\n\n\n" + #"{"jsonrpc":"2.0","id":2"#).utf8)
        let output = try Subprocess.run(["--clock", "virtual"], input: input)
        #expect(output.lines == [
            #"{"jsonrpc":"2.0","id":1,"result":{"now":1}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":23}}}"#,
        ])
        #expect(output.status == 0)
    }

    /// §2: the offset of a last line cut off by the end of input is where its text stopped
    /// being JSON (it was 0 whatever the line held).
    @Test func aLastLineCutOffIsAnsweredWithTheOffsetWhereItStoppedBeingJSON() throws {
        let cut = #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":0}}"# + "\n" + #"{"jsonrpc":"2.0","id":9,"method":"clock.adv"#
        #expect(try Subprocess.run(["--clock", "virtual"], input: Data(cut.utf8)).lines == [
            #"{"jsonrpc":"2.0","id":1,"result":{"now":0}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unterminated string","data":{"offset":43}}}"#,
        ])
        let broken = try Subprocess.run(["--clock", "virtual"], input: Data(#"{"jsonrpc":"2.0","id":tru"#.utf8))
        #expect(broken.lines == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the JSON text ends too early","data":{"offset":25}}}"#,
        ])
        let wrong = try Subprocess.run(["--clock", "virtual"], input: Data(#"{"jsonrpc":"2.0","id":x"#.utf8))
        #expect(wrong.lines == [
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected character 'x'","data":{"offset":22}}}"#,
        ])
    }

    @Test func exitCodesFollowTheLifecycle() throws {
        let clean = try Subprocess.run([], input: #"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"# + "\n" + #"{"jsonrpc":"2.0","method":"exit"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"# + "\n")
        #expect(clean.status == 0)
        #expect(clean.lines == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
        let abrupt = try Subprocess.run([], input: #"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
        #expect(abrupt.status == 1)
    }

    @Test(arguments: [
        ["--clock", "sundial"], ["--debounce-ms", "-5"], ["--frobnicate"], ["--log-level"], ["stray"],
    ])
    func aBadCommandLinePrintsUsageAndExits64(arguments: [String]) throws {
        let output = try Subprocess.run(arguments, input: "")
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("usage: signup-rpc [options]"))
    }

    @Test func helpAndVersion() throws {
        let help = try Subprocess.run(["--help"], input: "")
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: signup-rpc [options]"))
        let version = try Subprocess.run(["--version"], input: "")
        #expect(version.stdout == "signup-rpc 0.1.0 (protocol 1.0)\n")
    }

    @Test func aDirectoryFileScriptsTheBackend() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("directory-\(UUID().uuidString).json")
        try Data(#"{"taken":["alice"],"checkLatencyMs":{"min":10,"max":10},"seed":3}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--directory", file.path],
                                        input: #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"Alice"}}"# + "\n")
        #expect(output.lines.last == #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":1,"at":10}}"#)

        try Data(#"{"taken":["alice", 3]}"#.utf8).write(to: file)
        let bad = try Subprocess.run(["--directory", file.path], input: "")
        #expect(bad.status == 78)
        #expect(bad.stderr == "signup-rpc: \(file.path): $.taken[1]: must be a string, not number\n")
        let missing = try Subprocess.run(["--directory", "/nonexistent/directory.json"], input: "")
        #expect(missing.status == 66)
    }
}
