import Foundation
import SignupTestSupport
import Testing

/// `form.validate` (issue 55 §6, protocol.md §6): a whole object judged by a kind's local rules,
/// with a live form's codes; its secret values hidden in the trace and the recording, which replays.
@Suite struct ValidateMethodTests {
    static let request = #"{"jsonrpc":"2.0","id":1,"method":"form.validate","params":{"kind":"signup","values":{"username":"ann","password":"Qz7Wk9-validate","repeatedPassword":"Qz7Wk9-validat"}}}"#

    @Test func theSameVerdictsAsAFormOpenedWithTheValuesAndNoFormIsLeftOpen() throws {
        let input = [
            Self.request,
            #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"form":"f","values":{"username":"ann","password":"Qz7Wk9-validate","repeatedPassword":"Qz7Wk9-validat"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.snapshot","params":{"form":"v"}}"#,
        ].joined(separator: "\n") + "\n"
        // One form at most: were a form left open by the validation, the next could not open.
        let output = try Subprocess.run(["--clock", "virtual", "--max-forms", "1"], input: input)
        #expect(output.lines.first == #"{"jsonrpc":"2.0","id":1,"result":{"kind":"signup","locale":"en","valid":false,"fields":[{"field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability..."},{"field":"password","state":"ok","code":"password.acceptable","params":{},"message":"Password acceptable"},{"field":"repeatedPassword","state":"failed","code":"repeatedPassword.different","params":{"field":"password"},"message":"Password different"}]}}"#)
        // The opened form's events carry the same codes, in the same order.
        let opened = output.lines.filter { $0.contains(#""method":"form.fieldChanged","params":{"form":"f""#) }.prefix(3).map { $0.components(separatedBy: #""code":""#)[1].prefix { $0 != "\"" } }
        #expect(Array(opened) == ["username.checking", "password.acceptable", "repeatedPassword.different"])
        #expect(output.lines.contains { $0.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result":{"form":"f""#) })
        #expect(output.lines.contains(#"{"jsonrpc":"2.0","id":3,"error":{"code":-32010,"message":"No open form has the id 'v'","data":{"form":"v"}}}"#))
    }

    @Test func secretValuesAreHiddenInTheTraceAndTheRecordingWhichReplays() throws {
        let folder = try TemporaryDirectory()
        let (trace, recording) = (folder.path("trace.jsonl"), folder.path("session.jsonl"))
        let output = try Subprocess.run(["--clock", "virtual", "--trace", trace, "--record", recording], input: Self.request + "\n")
        #expect(output.status == 0)
        for path in [trace, recording] {
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!written.contains("Qz7Wk9") && written.contains(#""username":"ann""#), "\(path)")
        }
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
