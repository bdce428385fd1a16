import Testing
@testable import SignupBackends
@testable import SignupCore

/// The add/edit-friend form against the scripted directory, in virtual time.
@Suite struct FriendTests {
    private static let grace = Friend(firstName: "Grace", lastName: "Hopper", phone: "+15550100")
    private static let alan = Friend(firstName: "Alan", lastName: "Turing", phone: "+15550101")
    private let script = ScriptedDirectory.Script(
        registrationLatency: .fixed(.milliseconds(100)),
        friends: ["1": grace, "2": alan], protectedFriends: ["2"], failingPhones: ["+15550199"])

    private func fill(_ harness: FormHarness, at time: Int64, _ first: String, _ last: String, _ phone: String) {
        harness.edit(at: time, "firstName", first)
        harness.edit(at: time, "lastName", last)
        harness.edit(at: time, "phone", phone)
    }

    @Test func submitIsEnabledOnlyWhenEveryFieldIsFilledAndThePhoneIsValid() {
        let harness = FormHarness(definition: .friend)
        harness.edit(at: 10, "firstName", "Ada")
        harness.edit(at: 20, "lastName", "   ")
        harness.edit(at: 30, "lastName", "Lovelace")
        harness.edit(at: 40, "phone", "+44 20 7946")
        harness.edit(at: 50, "phone", "123456")
        harness.edit(at: 60, "phone", "+1234567890123456")
        harness.edit(at: 70, "phone", "1234567")
        harness.edit(at: 80, "firstName", String(repeating: "a", count: 101))
        #expect(harness.runToIdle() == [
            "@0 firstName v0: empty firstName.empty \"\"",
            "@0 lastName v0: empty lastName.empty \"\"",
            "@0 phone v0: empty phone.empty \"\"",
            "@0 submitEnabled false",
            "@10 firstName v1: ok firstName.ok \"\"",
            "@20 lastName v2: failed lastName.blank \"Last name cannot be only spaces\"",
            "@30 lastName v3: ok lastName.ok \"\"",
            "@40 phone v4: failed phone.invalid \"Phone number must be 7 to 15 digits, optionally starting with +\"",
            "@70 phone v7: ok phone.ok \"\"",
            "@70 submitEnabled true",
            "@80 firstName v8: failed firstName.tooLong max=100 \"First name is too long (maximum is 100 characters)\"",
            "@80 submitEnabled false",
        ])
    }

    @Test func opensEmptyToAddThenUpdatesTheFriendItAdded() {
        let harness = FormHarness(script: script, definition: .friend)
        fill(harness, at: 10, "Ada", "Lovelace", "+442079460000")
        harness.submit(at: 20)
        harness.edit(at: 200, "lastName", "King")
        harness.submit(at: 210)
        harness.runToIdle()
        #expect(harness.log(from: 20) == [
            "@20 submission submitting",
            "@20 submitEnabled false",
            "@120 submission succeeded {firstName=Ada,id=3,lastName=Lovelace,phone=+442079460000}",
            // Final until edited: the edit at 200 enables the update.
            "@200 submitEnabled true",
            "@210 submission submitting",
            "@210 submitEnabled false",
            "@310 submission succeeded {firstName=Ada,id=3,lastName=King,phone=+442079460000}",
        ])
        #expect(harness.form.recordID == "3")
        #expect(harness.directory.friends.count == 3)
        #expect(harness.directory.friends["3"] == Friend(firstName: "Ada", lastName: "King", phone: "+442079460000"))
    }

    @Test func openedOnARecordItUpdatesThatRecordPrefilled() {
        let harness = FormHarness(
            script: script, definition: .friend,
            initialValues: ["firstName": "Grace", "lastName": "Hopper", "phone": "+15550100"], recordID: "1")
        harness.edit(at: 10, "firstName", "Amazing Grace")
        harness.submit(at: 20)
        harness.runToIdle()
        #expect(harness.log(from: 0).prefix(4) == [
            "@0 firstName v0: ok firstName.ok \"\"", "@0 lastName v0: ok lastName.ok \"\"", "@0 phone v0: ok phone.ok \"\"", "@0 submitEnabled true",
        ])
        #expect(harness.log(from: 120) == [
            "@120 submission succeeded {firstName=Amazing Grace,id=1,lastName=Hopper,phone=+15550100}",
        ])
        #expect(harness.directory.friends["1"]?.firstName == "Amazing Grace")
    }

    @Test(arguments: [
        ("9", "+15550150", "friend.notFound \"This friend no longer exists\""),
        ("2", "+15550101", "friend.unauthorised \"You are not allowed to change this friend\""),
        ("1", "+15550101", "friend.conflict \"A friend with this phone number already exists\""),
        (nil, "+15550100", "friend.conflict \"A friend with this phone number already exists\""),
        (nil, "+15550199", "backend.unavailable \"Error contacting server\""),
    ] as [(String?, String, String)])
    func eachFailureReasonHasItsCodeAndMessage(recordID: String?, phone: String, failure: String) {
        let harness = FormHarness(script: script, definition: .friend, recordID: recordID)
        fill(harness, at: 10, "Kim", "Doe", phone)
        harness.submit(at: 20)
        harness.runToIdle()
        #expect(harness.log(from: 120) == ["@120 submission failed \(failure)", "@120 submitEnabled true"])
        #expect(harness.directory.friends == ["1": Self.grace, "2": Self.alan])
    }

    @Test func withoutAFriendBackendSavingFailsAsUnavailable() {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(scheduler: scheduler)
        let form = FormPipeline(definition: .friend, services: FormServices(availability: directory, registration: directory),
                                scheduler: scheduler, debounce: .zero)
        _ = try? form.edit("firstName", to: "Kim")
        _ = try? form.edit("lastName", to: "Doe")
        _ = try? form.edit("phone", to: "5550100")
        try? form.submit()
        scheduler.run()
        #expect(form.snapshot.submission == .failed(SubmissionFailure(Message("backend.unavailable", "Error contacting server"))))
    }

    @Test func inChineseOnlyTheMessageTextsDiffer() {
        func session(_ catalog: MessageCatalog) -> [FormEvent] {
            let scheduler = VirtualTimeScheduler()
            let directory = ScriptedDirectory(script: script, scheduler: scheduler)
            let form = FormPipeline(definition: .friend, services: FormServices(directory: directory), scheduler: scheduler,
                                    debounce: .zero, recordID: "2", catalog: catalog)
            var events: [FormEvent] = []
            form.events.subscribe(onNext: { events.append($0) })
            for (field, value) in [("firstName", " "), ("firstName", "Kim"), ("lastName", "Doe"), ("phone", "12"), ("phone", "5550123")] {
                _ = try? form.edit(field, to: value)
            }
            try? form.submit()
            scheduler.run()
            return events
        }
        func texts(_ events: [FormEvent]) -> [String] {
            events.compactMap { event in
                switch event {
                case .fieldChanged(let update): return update.result.message.isEmpty ? nil : update.result.message
                case .submissionChanged(.failed(let failure)): return failure.message
                default: return nil
                }
            }
        }
        func withoutTexts(_ events: [FormEvent]) -> [FormEvent] {
            events.map { event in
                switch event {
                case .fieldChanged(var update):
                    update.result.message = ""
                    return .fieldChanged(update)
                case .submissionChanged(.failed(var failure)):
                    failure.message = ""
                    return .submissionChanged(.failed(failure))
                default: return event
                }
            }
        }
        let english = session(.english)
        let chinese = session(.simplifiedChinese)
        #expect(withoutTexts(english) == withoutTexts(chinese))
        #expect(texts(chinese) == ["名字不能只有空格", "电话号码须为 7 到 15 位数字，可以 + 开头", "您无权修改该朋友"])
        #expect(texts(english) == [
            "First name cannot be only spaces", "Phone number must be 7 to 15 digits, optionally starting with +",
            "You are not allowed to change this friend",
        ])
    }
}
