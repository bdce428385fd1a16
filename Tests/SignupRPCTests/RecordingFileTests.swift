import Foundation
import SignupTestSupport
import Testing

/// Issue 36 §5: a hostile recording file, or a flag's number at the edge, gets its documented
/// answer from `replay` and `signup-marbles` alike: exit 65 naming the member, or 64 for a flag,
/// and never a trap.
@Suite struct RecordingFileTests {
    static let header = #"{"signupRecording":1,"server":"signup-rpc 0.1.0","clock":"virtual","debounceMs":300,"backend":"scripted","roles":["availability","register"],"limits":{"maxLineBytes":1048576,"maxValueLength":4096,"maxForms":10000,"maxBatch":1000,"maxDepth":64},"forms":[]}"#
    static let body = #"{"t":0,"in":{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}}"# + "\n"
        + #"{"t":0,"out":{"jsonrpc":"2.0","id":1,"result":{"now":5}}}"# + "\n" + #"{"t":5,"end":"input"}"# + "\n"

    private func write(_ text: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("session.rec.jsonl")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aWellFormedRecordingReplaysAndDraws() throws {
        let folder = try TemporaryDirectory()
        let path = try write(Self.header + "\n" + Self.body, in: folder)
        #expect(try Subprocess.run(["replay", path], input: "").status == 0)
        #expect(try Subprocess.run([path], input: "", program: "signup-marbles").status == 0)
    }

    @Test(arguments: [
        (#""forms":[]"#, #""forms":"none""#, "$.forms: must be an array"),
        (#""forms":[]"#, #""forms":[7]"#, "$.forms[0]: must be a form document (an object)"),
        (#""debounceMs":300"#, #""debounceMs":-300"#, "$.debounceMs: must be a whole number from 0 to 2147483647"),
        (#""debounceMs":300"#, #""debounceMs":"soon""#, "$.debounceMs: must be a whole number from 0 to 2147483647"),
        (#""limits":{"#, #""limits":"none","x":{"#, "$.limits: must be an object"),
        (#""maxBatch":1000"#, #""maxBatch":0"#, "$.limits.maxBatch: must be a whole number from 1 to 2147483647"),
        (#""maxDepth":64"#, #""maxDepth":99999999999"#, "$.limits.maxDepth: must be a whole number from 1 to 2147483647"),
        (#""roles":["availability","register"]"#, #""roles":{}"#, "$.roles: must be an array"),
        (#""backend":"scripted""#, #""backend":"carrier-pigeon""#, "$.backend: must be scripted, sqlite, postgresql or http"),
        (#""clock":"virtual""#, #""clock":"wall""#, "$.clock: must be real or virtual"),
    ])
    func aMalformedHeaderIsExit65NamingTheMember(old: String, new: String, problem: String) throws {
        let folder = try TemporaryDirectory()
        #expect(Self.header.contains(old))
        let path = try write(Self.header.replacingOccurrences(of: old, with: new) + "\n" + Self.body, in: folder)
        for program in ["signup-rpc", "signup-marbles"] {
            let output = try Subprocess.run(program == "signup-rpc" ? ["replay", path] : [path], input: "", program: program)
            #expect(output.status == 65, "\(program): \(output.stderr)")
            #expect(output.stderr.contains("line 1: \(problem)"), "\(program): \(output.stderr)")
        }
    }

    @Test(arguments: ["9223372036854775807", "9223372036854775000", "9007199254740992", "-1"])
    func aRecordTimeBeyondTheLatestTimeIsExit65(time: String) throws {
        let folder = try TemporaryDirectory()
        let path = try write(Self.header + "\n" + Self.body.replacingOccurrences(of: #"{"t":5,"#, with: #"{"t":\#(time),"#), in: folder)
        for program in ["signup-rpc", "signup-marbles"] {
            let output = try Subprocess.run(program == "signup-rpc" ? ["replay", path] : [path], input: "", program: program)
            #expect(output.status == 65, "\(program): \(output.stderr)")
            #expect(output.stderr.contains("line 4: $.t: must be a whole number of milliseconds from 0 to 9007199254740991"), "\(output.stderr)")
        }
    }

    @Test(arguments: [("--from", "9223372036854775807"), ("--to", "9223372036854775000"), ("--to", "9007199254740992"), ("--from", "-5")])
    func aWindowBeyondTheLatestTimeIsExit64(flag: String, value: String) throws {
        let folder = try TemporaryDirectory()
        let path = try write(Self.header + "\n" + Self.body, in: folder)
        let output = try Subprocess.run([path, flag, value], input: "", program: "signup-marbles")
        #expect(output.status == 64)
        #expect(output.stderr.contains("\(flag) needs a whole number of milliseconds from 0 to 9007199254740991"), "\(output.stderr)")
    }

    @Test func aWindowAtTheLatestTimeDraws() throws {
        let folder = try TemporaryDirectory()
        let path = try write(Self.header + "\n" + Self.body.replacingOccurrences(of: #"{"t":5,"#, with: #"{"t":9007199254740991,"#), in: folder)
        let output = try Subprocess.run([path, "--from", "9007199254740000", "--to", "9007199254740991"], input: "", program: "signup-marbles")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("<svg") || output.stdout.hasPrefix("<?xml"))
        let whole = try Subprocess.run([path], input: "", program: "signup-marbles")
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains(">8106479329266891 ms<"))
    }
}

extension RecordingFileTests {
    /// A fixture written from a session that shut down writes no `clock.advance` after
    /// `shutdown` (it would be refused, with a warning, when the fixture runs).
    /// Found by the fuzzer: an LSP body written over several lines (or a bare number followed by
    /// blank lines) was recorded as it came, line feeds and all, and the recording could not be read.
    @Test func anLSPBodyOverSeveralLinesIsRecordedAsOneRecordAndReplays() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("lsp.rec.jsonl")
        let body = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"clock.advance\",\n  \"params\": {\"by\": 5}\n}"
        let input = "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let run = try Subprocess.run(["--framing", "lsp", "--clock", "virtual", "--record", path], input: input)
        #expect(run.status == 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first == #"{"t":0,"in":{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}}"#)
        #expect(try Subprocess.run(["replay", path], input: "").status == 0)
    }

    @Test func aFixtureAdvancesTheClockOnlyUntilShutdown() throws {
        let folder = try TemporaryDirectory()
        let path = try write(Self.header.replacingOccurrences(of: #""clock":"virtual""#, with: #""clock":"real""#) + "\n" + """
            {"t":3,"in":{"jsonrpc":"2.0","id":1,"method":"shutdown"}}
            {"t":3,"out":{"jsonrpc":"2.0","id":1,"result":null}}
            {"t":40,"in":{"jsonrpc":"2.0","method":"exit"}}
            {"t":40,"end":"exit"}

            """, in: folder)
        let prefix = folder.path("shut")
        let replay = try Subprocess.run(["replay", path, "--write-fixture", prefix], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
        let fixture = try String(contentsOfFile: prefix + ".jsonl", encoding: .utf8)
        #expect(fixture == """
            {"jsonrpc":"2.0","method":"clock.advance","params":{"to":3,"exclusive":true}}
            {"jsonrpc":"2.0","id":1,"method":"shutdown"}
            {"jsonrpc":"2.0","method":"exit"}

            """)
        let flags = try String(contentsOfFile: prefix + ".flags", encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
        let run = try Subprocess.run(["--clock", "virtual"] + flags, input: fixture)
        #expect(run.stderr == "")
        #expect(run.lines == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
    }
}
