import Testing
@testable import SignupBackends
@testable import SignupCore

/// `FormPipeline.attach(_:)`: the same events as `events`, one call each, for hosts of many forms.
@Suite struct FormEventReceiverTests {
    /// Logs what it receives, and may run an action on its first event of a change.
    final class Recorder: FormEventReceiver {
        let name: String
        private(set) var log: [String] = []
        var onReceive: ((FormEvent) -> Void)?

        init(_ name: String) {
            self.name = name
        }

        func receive(_ event: FormEvent) {
            log.append("\(name) \(FormHarness.describe(event))")
            onReceive?(event)
        }

        func formDidClose() {
            log.append("\(name) closed")
        }
    }

    private static func makeForm(_ scheduler: VirtualTimeScheduler) -> FormPipeline {
        FormPipeline(
            definition: .signup, services: FormServices(directory: ScriptedDirectory(scheduler: scheduler)),
            scheduler: scheduler, debounce: .zero)
    }

    @Test func aReceiverGetsTheOpeningStateThenEveryChangeThenTheClose() throws {
        let scheduler = VirtualTimeScheduler()
        let form = Self.makeForm(scheduler)
        let recorder = Recorder("r")
        let attachment = form.attach(recorder)
        try form.edit("repeatedPassword", to: "secret")
        try form.edit("password", to: "secret")
        try form.edit("username", to: "alice")
        scheduler.run()
        form.close()
        #expect(recorder.log == [
            "r username v0: empty username.empty \"\"",
            "r password v0: empty password.empty \"\"",
            "r repeatedPassword v0: empty repeatedPassword.empty \"\"",
            "r submitEnabled false",
            "r repeatedPassword v1: failed repeatedPassword.different field=password \"Password different\"",
            "r password v2: ok password.acceptable \"Password acceptable\"",
            "r repeatedPassword v2: ok repeatedPassword.matches \"Password repeated\"",
            "r username v3: validating username.checking \"Checking availability...\"",
            "r username v3: ok username.available \"Username available\"",
            "r submitEnabled true",
            "r closed",
        ])
        attachment.dispose()
        #expect(recorder.log.count == 11)
    }

    @Test func aReceiverHearsWhatAnEventsSubscriberHearsInTheSameOrder() throws {
        let scheduler = VirtualTimeScheduler()
        let form = Self.makeForm(scheduler)
        var streamed: [String] = []
        let subscription = form.events.subscribe(
            onNext: { streamed.append("r \(FormHarness.describe($0))") }, onCompleted: { streamed.append("r closed") })
        let recorder = Recorder("r")
        let attachment = form.attach(recorder)
        for (field, value) in [("username", "bob"), ("password", "abc"), ("repeatedPassword", "abc"),
                               ("password", "abcdef"), ("repeatedPassword", "abcdef"), ("username", "bob!")] {
            try form.edit(field, to: value)
            scheduler.run()
        }
        form.close()
        #expect(streamed.count == 15)
        #expect(recorder.log == streamed)
        subscription.dispose()
        attachment.dispose()
    }

    @Test func aReceiverDetachedDuringAChangeHearsNoMoreOfIt() throws {
        let scheduler = VirtualTimeScheduler()
        let form = Self.makeForm(scheduler)
        try form.edit("repeatedPassword", to: "secret")
        let first = Recorder("first")
        let second = Recorder("second")
        _ = form.attach(first)
        let secondAttachment = form.attach(second)
        // The password edit changes two fields in one change; the first receiver detaches the
        // second on hearing the first of them.
        first.onReceive = { event in
            if case .fieldChanged(let update) = event, update.field == "password" { secondAttachment.dispose() }
        }
        try form.edit("password", to: "secret")
        try form.edit("password", to: "secret!")
        #expect(first.log.suffix(3) == [
            "first password v2: ok password.acceptable \"Password acceptable\"",
            "first repeatedPassword v2: ok repeatedPassword.matches \"Password repeated\"",
            "first repeatedPassword v3: failed repeatedPassword.different field=password \"Password different\"",
        ])
        #expect(second.log.last == "second submitEnabled false")
        #expect(second.log.count == 4)
    }

    /// A form whose `pass` is repeated by four fields: editing it changes five fields and
    /// whether submit is enabled in one change, more events than a change keeps inline.
    private static func makeManyRepeatsForm(_ scheduler: VirtualTimeScheduler) throws -> FormPipeline {
        let repeats = (1...4).map { number in
            FieldDefinition(name: "repeat\(number)", rules: [Rule(.equalsField("pass"), failure: Message("different", "Different"))],
                            successMessage: Message("same", "Same"))
        }
        let definition = try FormDefinition(
            kind: "repeats", fields: [FieldDefinition(name: "user"), FieldDefinition(name: "pass", successMessage: Message("set", "Set"))] + repeats,
            submit: SubmitAction(
                kind: .registerAccount(usernameField: "user", passwordField: "pass"),
                messages: [.taken: Message("t", "taken"), .refused: Message("r", "refused"), .unavailable: Message("u", "down")]))
        return FormPipeline(
            definition: definition, services: FormServices(directory: ScriptedDirectory(scheduler: scheduler)),
            scheduler: scheduler, debounce: .zero)
    }

    @Test func everyReceiverHearsEveryEventOfALargeChangeInOrder() throws {
        let scheduler = VirtualTimeScheduler()
        let form = try Self.makeManyRepeatsForm(scheduler)
        let recorders = ["a", "b", "c"].map(Recorder.init)
        let attachments = recorders.map { form.attach($0) }
        try form.edit("user", to: "ann")
        for number in 1...4 { try form.edit("repeat\(number)", to: "pw") }
        let opened = recorders[0].log.count
        try form.edit("pass", to: "pw")
        let expected = [
            "pass v6: ok set \"Set\"",
            "repeat1 v6: ok same \"Same\"",
            "repeat2 v6: ok same \"Same\"",
            "repeat3 v6: ok same \"Same\"",
            "repeat4 v6: ok same \"Same\"",
            "submitEnabled true",
        ]
        for recorder in recorders {
            #expect(Array(recorder.log.dropFirst(opened)) == expected.map { "\(recorder.name) \($0)" })
        }
        attachments.forEach { $0.dispose() }
    }

    @Test func attachingToAClosedFormOnlyTellsItClosed() {
        let scheduler = VirtualTimeScheduler()
        let form = Self.makeForm(scheduler)
        form.close()
        let recorder = Recorder("r")
        _ = form.attach(recorder)
        #expect(recorder.log == ["r closed"])
    }

    @Test func anEditMadeWhileAChangeIsSentChecksOnlyTheNewerValue() throws {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: .init(checkLatency: .fixed(.milliseconds(10))), scheduler: scheduler)
        let form = FormPipeline(
            definition: .signup, services: FormServices(directory: directory), scheduler: scheduler,
            debounce: .milliseconds(100))
        let recorder = Recorder("r")
        _ = form.attach(recorder)
        // Hearing that "bob" is being checked, the receiver types on: the edit lands while the
        // first change is still being sent, before that change has restarted the field's check.
        recorder.onReceive = { event in
            if case .fieldChanged(let update) = event, update.version == 1 { _ = try? form.edit("username", to: "bobby") }
        }
        // The action holds the form, which holds the recorder.
        defer { recorder.onReceive = nil }
        try form.edit("username", to: "bob")
        scheduler.run()
        #expect(Array(recorder.log.dropFirst(4)) == [
            "r username v1: validating username.checking \"Checking availability...\"",
            "r username v2: ok username.available \"Username available\"",
        ])
        #expect(directory.checkedNames == ["bobby"])
        #expect(scheduler.now == .origin + .milliseconds(110))
    }

    @Test func aReceiverAttachedDuringAChangeHearsFromTheNextChangeOn() throws {
        let scheduler = VirtualTimeScheduler()
        let form = Self.makeForm(scheduler)
        let first = Recorder("first")
        let late = Recorder("late")
        let firstAttachment = form.attach(first)
        try form.edit("repeatedPassword", to: "secret")
        // On the password's event the first receiver leaves and a new one attaches; the new one
        // hears its opening state at once, then nothing more of the change being sent.
        first.onReceive = { event in
            if case .fieldChanged(let update) = event, update.field == "password" {
                firstAttachment.dispose()
                _ = form.attach(late)
            }
        }
        try form.edit("password", to: "secret")
        try form.edit("username", to: "bob!")
        #expect(first.log.last == "first password v2: ok password.acceptable \"Password acceptable\"")
        #expect(Array(late.log.dropFirst(4)) == [
            "late username v3: failed username.invalidCharacters \"Username can only contain numbers or digits\"",
        ])
        #expect(late.log[1] == "late password v2: ok password.acceptable \"Password acceptable\"")
    }

    @Test func aFormDroppedWhileAttachedClosesAndItsAttachmentOutlivesIt() throws {
        let scheduler = VirtualTimeScheduler()
        let recorder = Recorder("r")
        var attachment: (any Disposable)?
        weak var dropped: FormPipeline?
        do {
            let form = Self.makeForm(scheduler)
            dropped = form
            attachment = form.attach(recorder)
            try form.edit("password", to: "abc")
        }
        // The attachment holds no count on the form: it went, and closed as it went.
        #expect(dropped == nil)
        #expect(recorder.log.suffix(2) == [
            "r password v1: failed password.tooShort min=5 \"Password must be at least 5 characters\"",
            "r closed",
        ])
        attachment?.dispose()
        #expect(recorder.log.count == 6)
    }
}
