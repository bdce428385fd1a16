import Foundation
import Testing
import SignupCore
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Issue 36 §5: a fixture written from a real-clock recording gives the recorded events where a
/// keystroke and the end of a quiet period, or a backend's answer, fell in the same millisecond.
@Suite struct FixtureOrderTests {
    /// A real-clock session (debounce 2 ms, a loopback HTTP backend with jittered latency): the
    /// keystroke `al` at 3 ms came just before the quiet period after `ali` (stamped 1 ms) ended,
    /// so `ali` was never asked about.
    static let keystrokeBeforeQuietPeriodEnds = #"""
        {"signupRecording":1,"server":"signup-rpc 0.1.0","clock":"real","debounceMs":2,"backend":"http","roles":["availability","register","logIn","friends"],"limits":{"maxLineBytes":1048576,"maxValueLength":4096,"maxValueBytes":16384,"maxForms":10000,"maxBatch":1000,"maxDepth":64},"forms":[]}
        {"t":1,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "a"}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"empty","code":"username.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"password","state":"empty","code":"password.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"repeatedPassword","state":"empty","code":"repeatedPassword.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"default","enabled":false,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":1,"at":1}}}
        {"t":1,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "al"}}}
        {"t":1,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "ali"}}}
        {"t":1,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "alic"}}}
        {"t":1,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "ali"}}}
        {"t":3,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "al"}}}
        {"t":3,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "ali"}}}
        {"t":5,"in":{"jsonrpc": "2.0", "method": "form.edit", "params": {"field": "username", "value": "alice"}}}
        {"t":7,"ask":1,"call":"availability","username":"alice"}
        {"t":9,"answer":1,"availability":"available"}
        {"t":9,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":8,"at":9}}}
        {"t":9,"end":"input"}
        """#

    @Test func aFixtureKeepsAKeystrokeBeforeTheQuietPeriodThatEndedInItsMillisecond() throws {
        let recording = try Recording.read(Array(Self.keystrokeBeforeQuietPeriodEnds.utf8))
        #expect(recording.inputsBeforeDueWork == [true, true, true, true, true, true, true, true])
        let folder = try TemporaryDirectory()
        let fixture = folder.path("tie")
        try FixtureWriter.write(recording, to: fixture)
        let input = try String(contentsOfFile: fixture + ".jsonl", encoding: .utf8)
        #expect(input.contains(#"{"jsonrpc":"2.0","method":"clock.advance","params":{"to":3,"exclusive":true}}"#))
        let output = try String(contentsOfFile: fixture + ".out.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(output == recording.outputs.map(ReplayCommand.encode))
        let outcome = try Replayer(recording: recording).run()
        #expect(outcome.divergence == nil)
        #expect(outcome.unrecordedQuestions.isEmpty)
    }

    /// An input comes after the work of its millisecond when a question or an answer of that
    /// millisecond was recorded before it, or anything of it after an input of an earlier one.
    @Test func theRecordedOrderTellsWhichInputsCameBeforeTheirMillisecondsWork() throws {
        let header = #"{"signupRecording":1,"server":"signup-rpc 0.1.0","clock":"real","debounceMs":2,"backend":"http","roles":["availability","register"],"limits":{},"forms":[]}"#
        let edit = #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"a"}}"#
        let records = [
            #"{"t":1,"in":\#(edit)}"#,
            #"{"t":3,"ask":1,"call":"availability","username":"a"}"#,
            #"{"t":3,"in":\#(edit)}"#,
            #"{"t":3,"in":\#(edit)}"#,
            #"{"t":5,"in":\#(edit)}"#,
            #"{"t":5,"answer":1,"availability":"available"}"#,
            #"{"t":6,"out":{"jsonrpc":"2.0","method":"x"}}"#,
            #"{"t":6,"in":\#(edit)}"#,
            #"{"t":6,"out":{"jsonrpc":"2.0","method":"x"}}"#,
            #"{"t":6,"in":\#(edit)}"#,
        ]
        let recording = try Recording.read(Array(([header] + records).joined(separator: "\n").utf8))
        // The ask at 3 came first; the second input at 3 followed the first with nothing between;
        // the answer at 5 came after its input; the output at 6 before the first input at 6 was
        // the work of that millisecond, the one after it that input's own answer.
        #expect(recording.inputsBeforeDueWork == [true, false, true, true, false, true])
        // Only the last is a guess: the output before it may have been the work of 6 ms.
        #expect(recording.inputsPlacedByGuess == [5])
    }

    /// A real-clock session (debounce 2 ms): at 7 ms a notification came, then the quiet period
    /// after `ali` (typed at 5) ended, answered from the cache, then `alice` came. The answer
    /// between the two inputs of 7 ms could as well have been the notification's own, so the
    /// recorded order alone places `alice` before the quiet period's end, and only a replay
    /// tells it came after. (`ali` at 5 ms, after `alic`'s answer, is a guess too, which holds.)
    static let quietPeriodEndsBetweenTwoInputsOfItsMillisecond = #"""
        {"signupRecording":1,"server":"signup-rpc 0.1.0","clock":"real","debounceMs":2,"backend":"http","roles":["availability","register","logIn","friends"],"limits":{"maxLineBytes":1048576,"maxValueLength":4096,"maxValueBytes":16384,"maxForms":10000,"maxBatch":1000,"maxDepth":64},"forms":[]}
        {"t":1,"in":{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"ali"}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"empty","code":"username.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"password","state":"empty","code":"password.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"repeatedPassword","state":"empty","code":"repeatedPassword.empty","params":{},"message":"","version":0,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"default","enabled":false,"at":1}}}
        {"t":1,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":1,"at":1}}}
        {"t":3,"ask":1,"call":"availability","username":"ali"}
        {"t":4,"answer":1,"availability":"taken"}
        {"t":4,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":1,"at":4}}}
        {"t":5,"in":{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alic"}}}
        {"t":5,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":2,"at":5}}}
        {"t":5,"in":{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"ali"}}}
        {"t":7,"in":{"jsonrpc":"2.0","method":"$/ping"}}
        {"t":7,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":3,"at":7}}}
        {"t":7,"in":{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}}
        {"t":7,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":4,"at":7}}}
        {"t":9,"ask":2,"call":"availability","username":"alice"}
        {"t":10,"answer":2,"availability":"available"}
        {"t":10,"out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":4,"at":10}}}
        {"t":10,"end":"input"}
        """#

    @Test func aReplayPlacesAnInputTheRecordedOrderLeavesOpen() throws {
        let recording = try Recording.read(Array(Self.quietPeriodEndsBetweenTwoInputsOfItsMillisecond.utf8))
        #expect(recording.inputsBeforeDueWork == [true, true, true, true, true])
        #expect(recording.inputsPlacedByGuess == [2, 4])
        let guessed = try Replayer(recording: recording).run()
        #expect(guessed.divergence?.index == 7)
        #expect(guessed.divergence?.time == 7)
        let (outcome, order) = try Replayer(recording: recording).runFindingOrder()
        #expect(order == [true, true, true, true, false])
        #expect(outcome.divergence == nil)
        #expect(outcome.replayed == recording.outputs)

        let folder = try TemporaryDirectory()
        let fixture = folder.path("between")
        try FixtureWriter.write(recording, to: fixture)
        let input = try String(contentsOfFile: fixture + ".jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(input.suffix(4) == [
            #"{"jsonrpc":"2.0","method":"clock.advance","params":{"to":7,"exclusive":true}}"#,
            #"{"jsonrpc":"2.0","method":"$/ping"}"#,
            #"{"jsonrpc":"2.0","method":"clock.advance","params":{"to":7}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}"#,
        ])
        let output = try String(contentsOfFile: fixture + ".out.jsonl", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(output == recording.outputs.map(ReplayCommand.encode))
    }

    @Test func anExclusiveAdvanceLeavesWhatIsDueThenForTheNextAdvance() {
        let harness = ServerHarness()
        let checking = #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":"#
        let opened = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}"#)
        #expect(opened.last == checking + #"1,"at":0}}"#)
        // The quiet period ends at 300: held, so the edit at 300 comes first and cancels it.
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"to":300,"exclusive":true}}"#)
            == [#"{"jsonrpc":"2.0","id":1,"result":{"now":300}}"#])
        #expect(harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"root"}}"#) == [])
        // The next advance, to the same time, runs what was held: the cancelled check asks nothing.
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"to":300}}"#)
            == [#"{"jsonrpc":"2.0","id":2,"result":{"now":300}}"#])
        // `root` is checked 300 ms after its edit, and answered 200 ms later.
        #expect(harness.send(#"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"to":800}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":2,"at":800}}"#,
            #"{"jsonrpc":"2.0","id":3,"result":{"now":800}}"#,
        ])
    }
}
