import Foundation
import Testing
import SignupCore
@testable import SignupServer
@testable import SignupTransport
import SignupTestSupport

/// A session's writer gathers what one piece of the loop's work sends into one write.
@Suite struct GatheredWritesTests {
    /// A real-clock writer on a pipe, which the loop may write to directly when idle, and the runs
    /// written, one per write (as the trace sees them).
    private func writer() -> (SessionWriter, runs: LockedValue<[String]>, pipe: Pipe) {
        let pipe = Pipe()
        let runs = LockedValue<[String]>()
        runs.set([])
        let writer = SessionWriter(
            fd: pipe.fileHandleForWriting.fileDescriptor, clock: .real,
            tracer: { run, _ in runs.update { $0?.append(String(decoding: run, as: UTF8.self)) } }, loop: EventLoop())
        return (writer, runs, pipe)
    }

    private func send(_ text: String, to writer: SessionWriter) {
        Array(text.utf8).withUnsafeBytes { writer.send($0, conflationKey: nil) }
    }

    @Test func messagesSentWhileGatheringAreWrittenTogetherWhenTheWorkIsDone() {
        let (writer, runs, pipe) = writer()
        writer.gatheringWrites {
            send("a", to: writer)
            send("b", to: writer)
            #expect(runs.get() == [], "nothing is written before the work is done")
        }
        #expect(runs.get() == ["a\nb\n"])
        send("c", to: writer)
        #expect(runs.get() == ["a\nb\n", "c\n"], "outside gathering, a message is written at once")
        #expect(writer.flush(givingUpAfter: .milliseconds(10_000)))
        writer.close()
        #expect(String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self) == "a\nb\nc\n")
    }

    @Test func gatheredMessagesTooLongForOneAtomicWriteGoThroughTheQueueInOrder() {
        let (writer, runs, pipe) = writer()
        let long = String(repeating: "x", count: 5000)
        writer.gatheringWrites {
            send("a", to: writer)
            send(long, to: writer)
            send("b", to: writer)
        }
        #expect(writer.flush(givingUpAfter: .milliseconds(10_000)))
        #expect(runs.get()?.joined() == "a\n\(long)\nb\n")
        writer.close()
        let drained = pipe.fileHandleForReading.readData(ofLength: 5005)
        #expect(String(decoding: drained, as: UTF8.self) == "a\n\(long)\nb\n")
    }

    @Test func aFlushInsideTheWorkWritesWhatWasGatheredFirst() {
        let (writer, runs, pipe) = writer()
        writer.gatheringWrites {
            send("a", to: writer)
            #expect(writer.flush(givingUpAfter: .milliseconds(10_000)))
            #expect(runs.get() == ["a\n"])
            send("b", to: writer)
        }
        #expect(runs.get() == ["a\n", "b\n"])
        writer.close()
        #expect(String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self) == "a\nb\n")
    }
}
