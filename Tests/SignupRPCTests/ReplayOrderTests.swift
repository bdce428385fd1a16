import Foundation
import Testing
import SignupTestSupport

/// protocol.md §15: a replay reproduces every message, in order (issue 54: two recordings made
/// without any editing did not replay).
@Suite struct ReplayOrderTests {
    /// A backend answering with no latency on the virtual clock: its answer falls due at the
    /// millisecond of the next message, a `clock.advance`, which gives it before its response.
    @Test func anAnswerGivenWhileAClockAdvanceRunsReplaysBeforeItsResponse() throws {
        let folder = try TemporaryDirectory()
        let directory = folder.path("directory.json"), recording = folder.path("login.jsonl")
        try Data(#"{"accounts":[{"username":"ada","password":"lovelace-1815"}],"checkLatencyMs":0,"registrationLatencyMs":0}"#.utf8)
            .write(to: URL(fileURLWithPath: directory))
        let input = """
            {"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"login","form":"l","values":{"username":"ada","password":"lovelace-1815"}}}
            {"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"l"}}
            {"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"by":5000}}

            """
        let run = try Subprocess.run(["--clock", "virtual", "--directory", directory, "--record", recording], input: input)
        #expect(run.status == 0)
        // Live, the answer came while the advance ran: its event precedes the advance's response.
        #expect(run.lines.suffix(2).first?.contains(#""state":"loggedIn""#) == true)
        #expect(run.lines.last == #"{"jsonrpc":"2.0","id":3,"result":{"now":5000}}"#)
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    /// A breach check answered from the kept range is answered as it is asked: live, its verdict
    /// comes before the edit's response, and so it does in the replay.
    @Test func aCheckAnsweredFromACacheReplaysAsItWasAnswered() throws {
        let server = try LoopbackHTTPServer(BreachedPasswordTests.range)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("breach.json", BreachedPasswordTests.form(server))
        let recording = folder.path("session.jsonl")
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--forms", forms, "--record", recording])
        let password = "mauve kettle drums at dawn"
        #expect(child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"breach","form":"a"}}"#,
                            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":"\#(password)"}}"#]))
        _ = child.readLines { $0.contains(#""form":"a","field":"password","state":"ok""#) }
        #expect(child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"kind":"breach","form":"b"}}"#,
                            #"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"b","field":"password","value":"\#(password)"}}"#]))
        let lines = child.readLines { $0.contains(#""id":3"#) }
        // Live: the kept range answers at once, so the verdict precedes the edit's response.
        #expect(lines.suffix(2).first?.contains(#""form":"b","field":"password","state":"ok""#) == true)
        child.closeInput()
        _ = child.readToEnd()
        #expect(child.wait(atMost: 30) == 0)
        #expect(server.requests.count == 1)
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
