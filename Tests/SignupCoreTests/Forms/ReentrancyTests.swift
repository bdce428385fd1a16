import Testing
@testable import SignupBackends
@testable import SignupCore

/// A form is safe whatever a receiver does from inside one of its events: close it, drop the last
/// reference to it, edit it or submit it again. Runs under AddressSanitizer in CI, where a form
/// reached after it was freed is a report, not luck.
@Suite struct ReentrancyTests {
    /// What a receiver does when it hears the trigger event.
    enum Action: String, CaseIterable, CustomTestStringConvertible {
        case close, drop, edit, submit
        var testDescription: String { rawValue }
    }

    /// Which event the receiver acts on, in a session that edits a taken name, then a free one,
    /// then taps submit and lets the registration finish.
    enum Trigger: String, CaseIterable, CustomTestStringConvertible {
        case opening = "submitEnabled false"
        case validating = "username v1: validating"
        case taken = "username v1: failed username.taken"
        case available = "username v2: ok username.available"
        case enabled = "submitEnabled true"
        case submitting = "submission submitting"
        case succeeded = "submission succeeded"
        var testDescription: String { "\(self)" }

        /// How many events of the trigger's change follow it: a form dropped (not closed) while
        /// it sends is still held by the call sending, so it finishes the change, then closes.
        var eventsLeftInItsChange: Int {
            switch self {
            case .available, .submitting, .succeeded: return 1
            case .opening, .validating, .taken, .enabled: return 0
            }
        }
    }

    /// Owns the form (the only strong reference once the test lets go) and logs every event.
    final class Owner: FormEventReceiver {
        var form: FormPipeline?
        let scheduler: VirtualTimeScheduler
        var log: [String] = []
        var trigger: Trigger?
        var action: Action = .close
        private var hasActed = false

        init(scheduler: VirtualTimeScheduler) {
            self.scheduler = scheduler
        }

        func receive(_ event: FormEvent) {
            let line = FormHarness.describe(event)
            log.append("@\(scheduler.now.milliseconds) \(line)")
            guard !hasActed, let trigger, line.hasPrefix(trigger.rawValue) else { return }
            hasActed = true
            log.append("-- \(action.rawValue)")
            switch action {
            case .close: form?.close()
            case .drop: form = nil
            case .edit:
                do { try form?.edit("username", to: "carol") } catch { log.append("edit refused: \(error)") }
            case .submit:
                do { try form?.submit() } catch { log.append("submit refused: \(error.rawValue)") }
            }
        }

        func formDidClose() {
            log.append("@\(scheduler.now.milliseconds) closed")
        }
    }

    struct Session {
        let scheduler = VirtualTimeScheduler()
        let directory: ScriptedDirectory
        let owner: Owner
        weak var form: FormPipeline?

        init(trigger: Trigger?, action: Action) {
            directory = ScriptedDirectory(
                script: .init(takenNames: ["bob"], checkLatency: .fixed(.milliseconds(100)),
                              registrationLatency: .fixed(.milliseconds(1000))),
                scheduler: scheduler)
            owner = Owner(scheduler: scheduler)
            owner.trigger = trigger
            owner.action = action
            let form = FormPipeline(
                definition: .signup, services: FormServices(directory: directory), scheduler: scheduler,
                debounce: .milliseconds(50), initialValues: ["password": "secret", "repeatedPassword": "secret"])
            owner.form = form
            self.form = form
            _ = form.attach(owner)
        }

        /// Edits `bob` (taken), then `alice` (free), taps submit and runs the clock out; each
        /// step goes through the owner's reference, as an app's view would.
        func play() {
            scheduler.schedule(after: .milliseconds(10)) { [owner] in _ = try? owner.form?.edit("username", to: "bob") }
            scheduler.schedule(after: .milliseconds(500)) { [owner] in _ = try? owner.form?.edit("username", to: "alice") }
            scheduler.schedule(after: .milliseconds(1000)) { [owner] in try? owner.form?.submit() }
            scheduler.run()
        }

        /// Lets go of the form as an app would (the owner and the form hold each other while both
        /// are open): it must then be freed.
        func end() {
            owner.form = nil
            #expect(form == nil, "the form outlived its last reference")
        }
    }

    static let undisturbed = [
        "@0 username v0: empty username.empty \"\"",
        "@0 password v0: ok password.acceptable \"Password acceptable\"",
        "@0 repeatedPassword v0: ok repeatedPassword.matches \"Password repeated\"",
        "@0 submitEnabled false",
        "@10 username v1: validating username.checking \"Checking availability...\"",
        "@160 username v1: failed username.taken \"Username already taken\"",
        "@500 username v2: validating username.checking \"Checking availability...\"",
        "@650 username v2: ok username.available \"Username available\"",
        "@650 submitEnabled true",
        "@1000 submission submitting",
        "@1000 submitEnabled false",
        "@2000 submission succeeded {username=alice}",
    ]

    @Test func theSessionUndisturbed() {
        let session = Session(trigger: nil, action: .close)
        session.play()
        #expect(session.owner.log == Self.undisturbed)
        #expect(session.directory.verdict(for: "alice") == .taken)
        session.end()
    }

    /// Closing the form from any event ends it there, and dropping it ends it once the change
    /// being sent is out: the receiver hears the close and nothing after it, no timer or request
    /// is left behind, and no registration starts after it.
    @Test(arguments: Trigger.allCases, [Action.close, .drop])
    func closingOrDroppingTheFormFromAnEventEndsItThere(trigger: Trigger, action: Action) throws {
        let session = Session(trigger: trigger, action: action)
        session.play()
        let position = try #require(Self.undisturbed.firstIndex { $0.contains(trigger.rawValue) })
        let now = Self.undisturbed[position].split(separator: " ")[0]
        let rest = action == .drop ? Self.undisturbed[(position + 1)...].prefix(trigger.eventsLeftInItsChange) : []
        #expect(session.owner.log == Array(Self.undisturbed[...position]) + ["-- \(action.rawValue)"] + rest + ["\(now) closed"])
        #expect(session.form == nil || action == .close)
        #expect(session.scheduler.pendingCount == 0)
        // A registration begun before the close still commits (it is never cancelled); one
        // refused by the close never starts.
        let registered = session.directory.verdict(for: "alice") == .taken
        #expect(registered == (trigger == .succeeded))
        session.end()
    }

    /// The first crash: a view that lets go of its form when the name is taken.
    @Test func droppingTheFormWhenTheCheckSaysTakenFreesIt() {
        let session = Session(trigger: .taken, action: .drop)
        session.play()
        #expect(session.form == nil)
        #expect(session.owner.log.suffix(3) == [
            "@160 username v1: failed username.taken \"Username already taken\"", "-- drop", "@160 closed",
        ])
        session.end()
    }

    /// The second crash: closing on `submitting` left a subscription running.
    @Test func closingOnSubmittingStartsNoRegistration() {
        let session = Session(trigger: .submitting, action: .close)
        session.play()
        #expect(session.owner.log.suffix(3) == ["@1000 submission submitting", "-- close", "@1000 closed"])
        #expect(session.directory.verdict(for: "alice") == .available)
        #expect(session.scheduler.pendingCount == 0)
        session.end()
    }

    @Test func editingFromAnAnswerSupersedesItAndIsCheckedInTurn() {
        let session = Session(trigger: .taken, action: .edit)
        session.play()
        // As undisturbed up to the answer that says taken.
        #expect(session.owner.log == Self.undisturbed.prefix(6) + [
            "-- edit",
            "@160 username v2: validating username.checking \"Checking availability...\"",
            "@310 username v2: ok username.available \"Username available\"",
            "@310 submitEnabled true",
            "@500 username v3: validating username.checking \"Checking availability...\"",
            "@500 submitEnabled false",
            "@650 username v3: ok username.available \"Username available\"",
            "@650 submitEnabled true",
            "@1000 submission submitting",
            "@1000 submitEnabled false",
            "@2000 submission succeeded {username=alice}",
        ])
        session.end()
    }

    @Test func editingFromSubmittingLeavesTheSubmissionOnItsSnapshot() {
        let session = Session(trigger: .submitting, action: .edit)
        session.play()
        #expect(Array(session.owner.log[9...]) == [
            "@1000 submission submitting",
            "-- edit",
            "@1000 username v3: validating username.checking \"Checking availability...\"",
            "@1000 submitEnabled false",
            "@1150 username v3: ok username.available \"Username available\"",
            "@2000 submission succeeded {username=alice}",
            // Edited since the tap: what is shown now was not submitted, so submit is enabled.
            "@2000 submitEnabled true",
        ])
        #expect(session.directory.verdict(for: "alice") == .taken)
        #expect(session.directory.verdict(for: "carol") == .available)
        session.end()
    }

    /// A tap from an event is a tap like any other: accepted when submit is enabled (the
    /// session's own tap at 1000 ms then finds one running), refused while one runs.
    @Test func submittingFromAnEventIsAnsweredAsAnyTap() {
        let enabled = Session(trigger: .enabled, action: .submit)
        enabled.play()
        #expect(Array(enabled.owner.log[8...]) == [
            "@650 submitEnabled true",
            "-- submit",
            "@650 submission submitting",
            "@650 submitEnabled false",
            "@1650 submission succeeded {username=alice}",
        ])
        enabled.end()
        let submitting = Session(trigger: .submitting, action: .submit)
        submitting.play()
        #expect(Array(submitting.owner.log[9...]) == [
            "@1000 submission submitting",
            "-- submit",
            "submit refused: submitting",
            "@1000 submitEnabled false",
            "@2000 submission succeeded {username=alice}",
        ])
        submitting.end()
    }
}
