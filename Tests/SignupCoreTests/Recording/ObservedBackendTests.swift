import Testing
@testable import SignupCore

/// `ObservedBackend`'s one-callback calls: the observer hears each question, then its answer or
/// its withdrawal, once; the caller gets every answer the backend gives; disposing reaches the
/// backend's call once; and nothing is kept once the call is over, whatever the caller does from
/// inside the answer.
@Suite struct ObservedBackendTests {
    /// A backend whose checks wait until the test answers them, or answer at once when asked to.
    private final class HeldChecks: UsernameAvailabilityChecking, AccountRegistering {
        var waiting: [(username: String, answer: (Result<Availability, any Error>) -> Void)] = []
        var answersAtOnce: Availability?
        var withdrawn: [String] = []

        func availability(of username: String) -> EventStream<Availability> { .fail(BackendError.timedOut) }

        func checkAvailability(of username: String, answer: @escaping (Result<Availability, any Error>) -> Void) -> any Disposable {
            if let answersAtOnce {
                answer(.success(answersAtOnce))
            } else {
                waiting.append((username, answer))
            }
            return ActionDisposable { [weak self] in self?.withdrawn.append(username) }
        }

        func register(username: String, password: String) -> EventStream<RegistrationOutcome> { .fail(BackendError.timedOut) }

        /// Answers the oldest waiting check, and forgets it.
        func answerNext(_ availability: Availability) {
            waiting.removeFirst().answer(.success(availability))
        }
    }

    private final class Heard: BackendObserver {
        var lines: [String] = []
        private var next = 1

        func backendAsked(_ question: BackendQuestion) -> Int {
            defer { next += 1 }
            lines.append("ask \(next) \(question)")
            return next
        }

        func backendAnswered(_ number: Int, _ answer: BackendAnswer) { lines.append("answer \(number) \(answer)") }
        func backendCancelled(_ number: Int) { lines.append("cancel \(number)") }
    }

    private static func observed(_ checks: HeldChecks, _ heard: Heard) -> ObservedBackend {
        ObservedBackend(FormServices(availability: checks, registration: checks), observer: heard)
    }

    @Test func aQuestionIsHeardThenItsAnswerAndTheCallerGetsIt() {
        let (checks, heard) = (HeldChecks(), Heard())
        var got: [String] = []
        let call = Self.observed(checks, heard).checkAvailability(of: "bob") { got.append("\((try? $0.get())!)") }
        checks.answerNext(.taken)
        call.dispose()
        #expect(heard.lines == ["ask 1 availability(username: \"bob\")", "answer 1 availability(SignupCore.Availability.taken)"])
        #expect(got == ["taken"])
        // Answered, it is not withdrawn in the recording; the backend's call is still disposed.
        #expect(checks.withdrawn == ["bob"])
    }

    @Test func aCallDisposedBeforeItsAnswerIsWithdrawnOnceAndALateAnswerStillReachesTheCaller() {
        let (checks, heard) = (HeldChecks(), Heard())
        var got: [String] = []
        let call = Self.observed(checks, heard).checkAvailability(of: "ann") { got.append("\((try? $0.get())!)") }
        call.dispose()
        call.dispose()
        checks.answerNext(.available)
        #expect(heard.lines == ["ask 1 availability(username: \"ann\")", "cancel 1"])
        #expect(checks.withdrawn == ["ann"])
        #expect(got == ["available"])
    }

    @Test func anAnswerGivenAtOnceIsHeardAndNothingIsKept() {
        let (checks, heard) = (HeldChecks(), Heard())
        checks.answersAtOnce = .available
        var got: [String] = []
        weak var weakCall: (any Disposable)?
        do {
            let call = Self.observed(checks, heard).checkAvailability(of: "cy") { got.append("\((try? $0.get())!)") }
            weakCall = call
            call.dispose()
        }
        #expect(heard.lines == ["ask 1 availability(username: \"cy\")", "answer 1 availability(SignupCore.Availability.available)"])
        #expect(got == ["available"])
        #expect(checks.withdrawn == ["cy"])
        #expect(weakCall == nil)
    }

    @Test func theCallerMayDisposeTheCallFromInsideItsAnswer() {
        let (checks, heard) = (HeldChecks(), Heard())
        var call: (any Disposable)?
        weak var weakCall: (any Disposable)?
        call = Self.observed(checks, heard).checkAvailability(of: "di") { _ in
            call?.dispose()
            call = nil
        }
        weakCall = call
        checks.answerNext(.taken)
        #expect(heard.lines == ["ask 1 availability(username: \"di\")", "answer 1 availability(SignupCore.Availability.taken)"])
        #expect(call == nil && weakCall == nil)
        #expect(checks.withdrawn == ["di"])
    }

    @Test func aCallDroppedWhileItWaitsIsAnsweredAndThenGone() {
        let (checks, heard) = (HeldChecks(), Heard())
        var got: [String] = []
        weak var weakCall: (any Disposable)?
        do {
            let call = Self.observed(checks, heard).checkAvailability(of: "ed") { got.append("\((try? $0.get())!)") }
            weakCall = call
        }
        checks.answerNext(.taken)
        #expect(weakCall == nil)
        #expect(got == ["taken"])
        #expect(heard.lines == ["ask 1 availability(username: \"ed\")", "answer 1 availability(SignupCore.Availability.taken)"])
    }
}
