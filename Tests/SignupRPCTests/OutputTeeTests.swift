import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The lines stdout's writer wrote, as a recording takes them (`OutputTee`).
@Suite struct OutputTeeTests {
    @Test func linesComeOutInOrderWhateverRunsTheyWerePublishedIn() {
        let tee = OutputTee()
        for run in ["a\nbc\n", "\n", "def\ng\n"] { Array(run.utf8).withUnsafeBytes { tee.publish($0) } }
        var lines: [String?] = []
        for _ in 0..<5 { lines.append(tee.withNextLine { String(decoding: $0, as: UTF8.self) }) }
        #expect(lines == ["a", "bc", "", "def", "g"])
    }

    @Test func aTakerAheadOfTheWriterWaitsForItsLine() async {
        let tee = OutputTee()
        let taker = Task.detached { tee.withNextLine { String(decoding: $0, as: UTF8.self) } }
        Array("later\n".utf8).withUnsafeBytes { tee.publish($0) }
        #expect(await taker.value == "later")
    }

    @Test func onceClosedATakerGetsWhatWasPublishedThenNothing() async {
        let tee = OutputTee()
        Array("kept\n".utf8).withUnsafeBytes { tee.publish($0) }
        #expect(tee.withNextLine { String(decoding: $0, as: UTF8.self) } == "kept")
        let waiting = Task.detached { tee.withNextLine { String(decoding: $0, as: UTF8.self) } }
        tee.close()
        #expect(await waiting.value == nil)
        #expect(tee.withNextLine { _ in "never called" } == nil)
    }
}
