import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The lines stdout's writer wrote, as a recording takes them (`OutputTee`).
@Suite struct OutputTeeTests {
    private static func nextLine(of tee: OutputTee) -> String? {
        var line: String?
        return tee.withNextLine { line = String(decoding: $0, as: UTF8.self) } ? line : nil
    }

    @Test func linesComeOutInOrderWhateverRunsTheyWerePublishedIn() {
        let tee = OutputTee()
        for run in ["a\nbc\n", "\n", "def\ng\n"] { Array(run.utf8).withUnsafeBytes { tee.publish($0) } }
        var lines: [String?] = []
        for _ in 0..<5 { lines.append(Self.nextLine(of: tee)) }
        #expect(lines == ["a", "bc", "", "def", "g"])
    }

    @Test func aTakerAheadOfTheWriterWaitsForItsLine() async {
        let tee = OutputTee()
        let taker = Task.detached { Self.nextLine(of: tee) }
        Array("later\n".utf8).withUnsafeBytes { tee.publish($0) }
        #expect(await taker.value == "later")
    }

    @Test func onceClosedATakerGetsWhatWasPublishedThenNothing() async {
        let tee = OutputTee()
        Array("kept\n".utf8).withUnsafeBytes { tee.publish($0) }
        #expect(Self.nextLine(of: tee) == "kept")
        let waiting = Task.detached { Self.nextLine(of: tee) }
        tee.close()
        #expect(await waiting.value == nil)
        var called = false
        #expect(!tee.withNextLine { _ in called = true } && !called)
    }
}
