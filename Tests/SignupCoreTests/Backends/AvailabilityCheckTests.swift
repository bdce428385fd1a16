import Testing
@testable import SignupBackends
@testable import SignupCore

/// `checkAvailability(of:answer:)`: one answer per check, from a backend's stream by default or
/// from the scripted directory's own timer.
@Suite struct AvailabilityCheckTests {
    /// A backend that only has the stream: each name's stream is given by the test.
    private final class StreamOnlyDirectory: UsernameAvailabilityChecking {
        let streams: [String: EventStream<Availability>]

        init(_ streams: [String: EventStream<Availability>]) {
            self.streams = streams
        }

        func availability(of username: String) -> EventStream<Availability> {
            streams[username]!
        }
    }

    /// Streams of the shapes a backend may give, built by hand.
    private static func elements(_ answers: [Availability]) -> EventStream<Availability> {
        EventStream { observer in
            answers.forEach(observer.onNext)
            observer.onCompleted()
            return Disposables.empty
        }
    }

    private static func taken(after delay: TimeSpan, on scheduler: VirtualTimeScheduler) -> EventStream<Availability> {
        EventStream { observer in
            scheduler.schedule(after: delay) {
                observer.onNext(.taken)
                observer.onCompleted()
            }
        }
    }

    private static func describe(_ answer: Result<Availability, any Error>) -> String {
        switch answer {
        case .success(let availability): availability.rawValue
        case .failure(let error): "\(error)"
        }
    }

    @Test func byDefaultTheStreamsFirstEventIsTheOneAnswer() {
        let scheduler = VirtualTimeScheduler()
        let directory = StreamOnlyDirectory([
            "ann": Self.elements([.available, .taken]),
            "bob": .fail(BackendError.timedOut),
            "cat": Self.elements([]),
            "dan": Self.taken(after: .milliseconds(5), on: scheduler),
        ])
        var answers: [String] = []
        for name in ["ann", "bob", "cat", "dan"] {
            _ = directory.checkAvailability(of: name) { answers.append("\(name) \(Self.describe($0))") }
        }
        #expect(answers == [
            "ann available",
            "bob backend timed out",
            "cat backend unavailable: the availability check ended without an answer",
        ])
        scheduler.run()
        #expect(answers.last == "dan taken")
        #expect(answers.count == 4)
    }

    @Test func byDefaultDisposingBeforeTheAnswerCancelsIt() {
        let scheduler = VirtualTimeScheduler()
        let directory = StreamOnlyDirectory([
            "dan": Self.taken(after: .milliseconds(5), on: scheduler),
        ])
        var answers: [String] = []
        let check = directory.checkAvailability(of: "dan") { answers.append(Self.describe($0)) }
        check.dispose()
        scheduler.run()
        #expect(answers.isEmpty)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theScriptedDirectoryAnswersAfterItsLatencyAsItsStreamDoes() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(
            script: .init(takenNames: ["bob"], failingNames: ["flaky"], checkLatency: .fixed(.milliseconds(30))),
            scheduler: scheduler)
        var answers: [String] = []
        for name in ["ann", "bob", "flaky"] {
            _ = directory.checkAvailability(of: name) { answers.append("@\(scheduler.now.milliseconds) \(name) \(Self.describe($0))") }
            _ = directory.availability(of: name).subscribe(
                onNext: { answers.append("@\(scheduler.now.milliseconds) \(name) stream \($0.rawValue)") },
                onError: { answers.append("@\(scheduler.now.milliseconds) \(name) stream \($0)") })
        }
        let cancelled = directory.checkAvailability(of: "cat") { answers.append("cat \(Self.describe($0))") }
        cancelled.dispose()
        #expect(answers.isEmpty)
        scheduler.run()
        #expect(answers == [
            "@30 ann available",
            "@30 ann stream available",
            "@30 bob taken",
            "@30 bob stream taken",
            "@30 flaky backend unavailable: scripted server error",
            "@30 flaky stream backend unavailable: scripted server error",
        ])
        #expect(directory.checkedNames == ["ann", "ann", "bob", "bob", "flaky", "flaky", "cat"])
    }

    /// Issue 37: the username check asked through the generic check port, as every form asks it.
    @Test func theCheckPortAsksTheDirectoryAndTurnsAvailabilityIntoAVerdict() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(
            script: .init(takenNames: ["bob"], failingNames: ["flaky"], checkLatency: .fixed(.milliseconds(30))),
            scheduler: scheduler)
        let checks = FormServices(directory: directory).checks
        let check = FormDefinition.signup.fields[0].remoteChecks[0]
        var answers: [String] = []
        for name in ["ann", "bob", "flaky", "cat"] {
            let asked = checks.ask(CheckQuestion(check: check, value: name)) { answer in
                switch answer {
                case .success(let verdict): answers.append("@\(scheduler.now.milliseconds) \(name) \(verdict)")
                case .failure(let error): answers.append("@\(scheduler.now.milliseconds) \(name) \(error)")
                }
            }
            if name == "cat" { asked.dispose() }
        }
        scheduler.run()
        #expect(answers == [
            "@30 ann passed",
            "@30 bob rejected(nil)",
            "@30 flaky backend unavailable: scripted server error",
        ])
    }
}
