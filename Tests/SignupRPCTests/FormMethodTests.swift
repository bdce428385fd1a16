import Testing
import SignupBackends
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

@Suite struct FormMethodTests {
    private func quiet(_ configuration: inout ServerConfiguration) {
        configuration.debounce = .zero
        configuration.script = .init(takenNames: ["bob"], checkLatency: .fixed(.milliseconds(100)),
                                     registrationLatency: .fixed(.milliseconds(500)))
    }

    /// §8.3: what is due exactly at a message's `at` happens before the message: the answer due
    /// at 100 ms is shown, then the edit at 100 ms supersedes it with its own `validating`.
    @Test func workDueExactlyAtAMessagesTimeHappensBeforeTheMessage() {
        let harness = ServerHarness(configure: quiet)
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"bob"}}"#)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"form.edit","params":{"field":"username","value":"bobby","at":100}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":1,"at":100}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":2,"at":100}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"default","version":2}}"#,
        ])
    }

    @Test func eventsComeBeforeTheResponseOfTheMessageThatCausedThem() {
        let harness = ServerHarness(configure: quiet)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"a","values":{"password":"secret"}}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"username","state":"empty","code":"username.empty","params":{},"message":"","version":0,"at":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"password","state":"ok","code":"password.acceptable","params":{},"message":"Password acceptable","version":0,"at":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"repeatedPassword","state":"empty","code":"repeatedPassword.empty","params":{},"message":"","version":0,"at":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"a","enabled":false,"at":0}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"a","kind":"signup","version":0,"locale":"en"}}"#,
        ])
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"form":"a","field":"repeatedPassword","value":"secret","at":10}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"repeatedPassword","state":"ok","code":"repeatedPassword.matches","params":{},"message":"Password repeated","version":1,"at":10}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"form":"a","version":1}}"#,
        ])
        // Timers due before a message's `at` fire first, with their own times.
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"username","value":"bob","at":20}}"#)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":3,"method":"form.snapshot","params":{"form":"a","at":500}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":2,"at":120}}"#,
            #"{"jsonrpc":"2.0","id":3,"result":{"form":"a","kind":"signup","version":2,"fields":[{"field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":2},{"field":"password","state":"ok","code":"password.acceptable","params":{},"message":"Password acceptable","version":0},{"field":"repeatedPassword","state":"ok","code":"repeatedPassword.matches","params":{},"message":"Password repeated","version":1}],"submitEnabled":false,"submission":{"state":"idle"}}}"#,
        ])
    }

    @Test func submitAnswersAcceptedOrTheReasonAndReportsTheOutcome() {
        let harness = ServerHarness(configure: quiet)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":1,"method":"form.submit"}"#)
            == #"{"jsonrpc":"2.0","id":1,"result":{"form":"default","accepted":false,"reason":"invalid"}}"#)
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}"#)
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"password","value":"secret"}}"#)
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"repeatedPassword","value":"secret","at":100}}"#)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"at":200}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"default","state":"submitting","at":200}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"default","enabled":false,"at":200}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"form":"default","accepted":true}}"#,
        ])
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"at":300}}"#)
            == #"{"jsonrpc":"2.0","id":3,"result":{"form":"default","accepted":false,"reason":"submitting"}}"#)
        #expect(harness.send(#"{"jsonrpc":"2.0","id":4,"method":"clock.advance","params":{"to":700}}"#) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"default","state":"succeeded","account":{"username":"alice"},"at":700}}"#,
            #"{"jsonrpc":"2.0","id":4,"result":{"now":700}}"#,
        ])
    }

    @Test func formErrorsNameWhatIsWrong() {
        let harness = ServerHarness { $0.limits.maxForms = 2; $0.limits.maxValueLength = 5 }
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.open","params":{"form":"a"}}"#)
        let cases: [(String, String)] = [
            (#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"a"}}"#,
             #"{"jsonrpc":"2.0","id":1,"error":{"code":-32011,"message":"A form with the id 'a' is already open; close it or choose another id","data":{"form":"a"}}}"#),
            (#"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"kind":"survey"}}"#,
             #"{"jsonrpc":"2.0","id":2,"error":{"code":-32012,"message":"Unknown form kind 'survey'; known kinds: signup, signup-github, login, friend, signup-secure","data":{"kind":"survey","known":["signup","signup-github","login","friend","signup-secure"]}}}"#),
            (#"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"zz","field":"username","value":"x"}}"#,
             #"{"jsonrpc":"2.0","id":3,"error":{"code":-32010,"message":"No open form has the id 'zz'","data":{"form":"zz"}}}"#),
            (#"{"jsonrpc":"2.0","id":4,"method":"form.edit","params":{"form":"a","field":"email","value":"x"}}"#,
             #"{"jsonrpc":"2.0","id":4,"error":{"code":-32013,"message":"Form kind 'signup' has no field 'email'; its fields: username, password, repeatedPassword","data":{"field":"email","kind":"signup","fields":["username","password","repeatedPassword"]}}}"#),
            (#"{"jsonrpc":"2.0","id":5,"method":"form.edit","params":{"form":"a","field":"username","value":"abcdef"}}"#,
             #"{"jsonrpc":"2.0","id":5,"error":{"code":-32021,"message":"The value of 'username' is longer than 5 characters","data":{"field":"username","limit":5,"unit":"characters"}}}"#),
            (#"{"jsonrpc":"2.0","id":6,"method":"form.edit","params":{"form":"a","field":"username"}}"#,
             #"{"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: params.value is required","data":{"member":"params.value","problem":"is required"}}}"#),
            (#"{"jsonrpc":"2.0","id":7,"method":"form.edit","params":{"form":"a","field":"username","value":null}}"#,
             #"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: params.value must be a string, not null","data":{"member":"params.value","problem":"must be a string, not null"}}}"#),
            (#"{"jsonrpc":"2.0","id":8,"method":"form.open","params":{"values":{"username":1}}}"#,
             #"{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: params.values.username must be a string, not number","data":{"member":"params.values.username","problem":"must be a string, not number"}}}"#),
            (#"{"jsonrpc":"2.0","id":9,"method":"form.close","params":{"form":"nope"}}"#,
             #"{"jsonrpc":"2.0","id":9,"error":{"code":-32010,"message":"No open form has the id 'nope'","data":{"form":"nope"}}}"#),
        ]
        for (request, response) in cases {
            #expect(harness.respond(request) == response)
        }
        _ = harness.send(#"{"jsonrpc":"2.0","method":"form.open","params":{}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":10,"method":"form.open","params":{}}"#)
            == #"{"jsonrpc":"2.0","id":10,"error":{"code":-32022,"message":"At most 2 forms may be open at once; close one first","data":{"limit":2}}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":11,"method":"form.close","params":{"form":"a"}}"#)
            == #"{"jsonrpc":"2.0","id":11,"result":{"form":"a"}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":12,"method":"form.open","params":{}}"#)
            == #"{"jsonrpc":"2.0","id":12,"result":{"form":"form-2","kind":"signup","version":0,"locale":"en"}}"#)
    }

    @Test func theLocaleIsChosenInInitializeOrPerFormAndAnUnknownOneFallsBackToEnglish() {
        let harness = ServerHarness(configure: quiet)
        let initialized = harness.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"locale":"zh-CN"}}"#)
        #expect(initialized.count == 1 && initialized[0].contains(#""protocolVersion":"1.0","locale":"zh-Hans","capabilities":{"#))
        #expect(initialized[0].contains(#""locales":["en","zh-Hans"]"#))
        #expect(harness.send(#"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"field":"password","value":"abc"}}"#).suffix(2) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"password","state":"failed","code":"password.tooShort","params":{"min":5},"message":"密码至少需要 5 个字符","version":1,"at":0}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"form":"default","version":1}}"#,
        ])
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":3,"method":"form.open","params":{"form":"e","locale":"en-US"}}"#)
            == #"{"jsonrpc":"2.0","id":3,"result":{"form":"e","kind":"signup","version":0,"locale":"en"}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":4,"method":"form.open","params":{"form":"f","locale":"fr"}}"#)
            == #"{"jsonrpc":"2.0","id":4,"result":{"form":"f","kind":"signup","version":0,"locale":"en","unsupportedLocale":"fr"}}"#)
        let other = ServerHarness()
        #expect(other.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"locale":"tlh"}}"#)[0]
            .contains(#""protocolVersion":"1.0","locale":"en","unsupportedLocale":"tlh","capabilities""#))
    }

    @Test func virtualTimeOnlyMovesForward() {
        let harness = ServerHarness()
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"to":100}}"#)
            == #"{"jsonrpc":"2.0","id":1,"result":{"now":100}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"field":"username","value":"x","at":50}}"#)
            == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Virtual time only moves forward: it is 100 ms, and 50 ms was asked for","data":{"now":100,"requested":50}}}"#)
        #expect(harness.respond(#"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"by":1,"to":200}}"#)
            == #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: params takes by or to, not both","data":{"member":"params","problem":"takes by or to, not both"}}}"#)
    }

    @Test func theRealClockRefusesVirtualTimeControls() {
        let sink = CollectingSink()
        let loop = EventLoop(label: "test.real")
        let scheduler = RealTimeScheduler(loop: loop)
        let server = Server(configuration: ServerConfiguration(), clock: .real(scheduler),
                            services: FormServices(directory: ScriptedDirectory(scheduler: scheduler)), sink: sink)
        Array(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":5}}"#.utf8).withUnsafeBufferPointer { server.handle(line: $0) }
        Array(#"{"jsonrpc":"2.0","id":2,"method":"form.snapshot","params":{"at":5}}"#.utf8).withUnsafeBufferPointer { server.handle(line: $0) }
        #expect(sink.take() == [
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"clock.advance needs the virtual clock; start the server with --clock virtual"}}"#,
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"at needs the virtual clock; start the server with --clock virtual"}}"#,
        ])
    }

    @Test func passwordsNeverAppearInAnyOutput() {
        let harness = ServerHarness(configure: quiet)
        var output: [String] = []
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"p","values":{"password":"Tr0ub4dor&3"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"form":"p","field":"username","value":"carol"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"p","field":"repeatedPassword","value":"Tr0ub4dor&3","at":200}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"form.submit","params":{"form":"p"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"form.snapshot","params":{"form":"p","at":1000}}"#,
        ] {
            output += harness.send(line)
        }
        #expect(output.contains { $0.contains(#""state":"succeeded""#) })
        #expect(!output.contains { $0.contains("Tr0ub4dor") })
    }
}
