import Foundation
import Testing
import SignupBackends
import SignupCore
import SignupTestSupport

/// The SQLite user directory through the real binary.
@Suite struct StoreEndToEndTests {
    private static func open(_ form: String, _ username: String, _ password: String, at time: Int) -> String {
        #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"\#(form)","values":{"username":"\#(username)","password":"\#(password)","repeatedPassword":"\#(password)"},"at":\#(time)}}"#
    }

    private static func submit(_ form: String, id: Int, at time: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)","at":\#(time)}}"#
    }

    private static func signup(_ username: String, _ password: String) -> String {
        [open("f", username, password, at: 0), submit("f", id: 1, at: 10), submit("f", id: 2, at: 20)].joined(separator: "\n") + "\n"
    }

    @Test func aRegistrationPersistsAcrossRestartsAndTheNameIsThenTaken() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let password = "Canary-Pa55word"
        let first = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", store],
                                       input: Self.signup("alice", password))
        #expect(first.status == 0)
        #expect(first.lines.contains(#"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"alice"},"at":10}}"#))

        let second = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", store],
                                        input: Self.signup("ALICE", "other-password"))
        #expect(second.lines.contains(#"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":0,"at":0}}"#))
        #expect(second.lines.contains(#"{"jsonrpc":"2.0","id":1,"result":{"form":"f","accepted":false,"reason":"invalid"}}"#))

        // The stored hash verifies; the clear password is nowhere: not in any file, not in any output.
        let reopened = try UserStore(path: store)
        #expect(try reopened.registeredNames() == ["alice"])
        #expect(PasswordHasher.verify(password, against: try #require(try reopened.passwordHash(of: "alice"))))
        #expect(!PasswordHasher.verify("other-password", against: try #require(try reopened.passwordHash(of: "alice"))))
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(file))
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file) holds the clear password")
        }
        for output in [first.stdout, first.stderr, second.stdout, second.stderr] {
            #expect(!output.contains(password))
        }
    }

    /// The last process to close the store folds its write-ahead log back into the database file:
    /// at end of input, after shutdown and exit, and on SIGTERM, a copy of the file alone is a
    /// whole store (it held nothing but an empty schema before: everything sat in `-wal`).
    @Test(arguments: ["end of input", "shutdown and exit", "SIGTERM"])
    func theDatabaseFileAloneHoldsEveryRegistrationOnceTheProcessHasEnded(ending: String) throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let arguments = ["--clock", "virtual", "--debounce-ms", "0", "--store", store]
        switch ending {
        case "end of input":
            #expect(try Subprocess.run(arguments, input: Self.signup("alice", "secret-1")).status == 0)
        case "shutdown and exit":
            let input = Self.signup("alice", "secret-1")
                + #"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"# + "\n" + #"{"jsonrpc":"2.0","method":"exit"}"# + "\n"
            #expect(try Subprocess.run(arguments, input: input).status == 0)
        default:
            let child = try InteractiveProcess(arguments)
            child.send([Self.signup("alice", "secret-1")])
            _ = child.readLines { $0.contains(#""id":2"#) }
            child.send(signal: SIGTERM)
            #expect(child.wait(atMost: 20) == 0)
        }
        let wal = store + "-wal"
        let walBytes = FileManager.default.fileExists(atPath: wal) ? try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int : 0
        #expect(walBytes == 0)
        let copy = folder.path("backup.db")
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        #expect(try UserStore(path: copy).registeredNames() == ["alice"])
    }

    @Test func fourProcessesRegisteringTheSameHundredNamesHaveOneWinnerEach() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let names = (0..<100).map { "user\($0)" }
        let input = names.enumerated().flatMap { index, name in
            [Self.open("f\(index)", name, "secret-\(index)", at: index * 10), Self.submit("f\(index)", id: index, at: index * 10)]
        }.joined(separator: "\n") + "\n"

        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var outputs: [Subprocess.Output] = []
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let output = try? Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", store], input: input)
            results.lock.withLock { if let output { results.outputs.append(output) } }
        }
        #expect(results.outputs.count == 4)
        #expect(results.outputs.allSatisfy { $0.status == 0 },
                "exit statuses \(results.outputs.map(\.status)), stderr: \(results.outputs.map(\.stderr).filter { !$0.isEmpty })")

        var winners = [Int](repeating: 0, count: names.count)
        for output in results.outputs {
            for (index, _) in names.enumerated() {
                let form = #""form":"f\#(index)""#
                let lines = output.lines.filter { $0.contains(form + ",") || $0.contains(form + "}") }
                let won = lines.contains { $0.contains(#""state":"succeeded""#) }
                let lostRace = lines.contains { $0.contains("form.submissionChanged") && $0.contains(#""state":"failed","code":"username.taken""#) }
                let sawTaken = lines.contains { $0.contains(#""field":"username","state":"failed","code":"username.taken""#) }
                    && lines.contains { $0.contains(#""accepted":false,"reason":"invalid""#) }
                #expect([won, lostRace, sawTaken].filter { $0 }.count == 1, "f\(index): \(lines)")
                if won { winners[index] += 1 }
            }
        }
        #expect(winners == [Int](repeating: 1, count: names.count))
        // The last of the four to close folded the log into the file, whichever it was.
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        let registered = try UserStore(path: store).registeredNames()
        #expect(registered.sorted() == names.sorted())
    }

    @Test func killingTheProcessLosesNoAcknowledgedRegistration() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let child = try InteractiveProcess(["--clock", "virtual", "--debounce-ms", "0", "--store", store])
        var acknowledged: [String] = []
        var index = 0
        // Lock step until 30 registrations are acknowledged, then a burst, killed while it runs.
        while acknowledged.count < 30 {
            child.send([Self.open("f\(index)", "name\(index)", "pw-\(index)", at: index * 10),
                        Self.submit("f\(index)", id: index, at: index * 10)])
            let lines = child.readLines { $0.contains(#""id":\#(index),"result""#) }
            acknowledged += lines.compactMap(Self.acknowledgedName)
            index += 1
        }
        child.send((index..<(index + 40)).flatMap { next in
            [Self.open("f\(next)", "name\(next)", "pw-\(next)", at: next * 10), Self.submit("f\(next)", id: next, at: next * 10)]
        })
        // Read a few more acknowledgements from the burst, then kill in the middle of it.
        for _ in 0..<5 {
            let lines = child.readLines { $0.contains(#""state":"succeeded""#) }
            acknowledged += lines.compactMap(Self.acknowledgedName)
        }
        child.killHard()

        let reopened = try UserStore(path: store)
        #expect(try reopened.integrityCheck() == "ok")
        let registered = Set(try reopened.registeredNames())
        #expect(acknowledged.count >= 35)
        for name in acknowledged {
            #expect(registered.contains(name), "\(name) was acknowledged but is not in the store")
        }
    }

    /// The username of a `succeeded` event, if the line is one.
    private static func acknowledgedName(_ line: String) -> String? {
        guard line.contains(#""state":"succeeded""#), let range = line.range(of: #""account":{"username":""#) else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func validationKeepsFlowingWhileARegistrationHashes() throws {
        let folder = try TemporaryDirectory()
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--store", folder.path("users.db")])
        child.send([#"{"jsonrpc":"2.0","method":"form.open","params":{"form":"f","values":{"username":"erin","password":"secret","repeatedPassword":"secret"}}}"#])
        _ = child.readLines { $0.contains(#""enabled":true"#) }
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f"}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"form":"g"}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"g","field":"password","value":"abc"}}"#,
        ])
        let lines = child.readLines { $0.contains(#""state":"succeeded""#) }
        child.closeInput()
        #expect(child.wait() == 0)
        let edited = try #require(lines.firstIndex { $0.contains(#""id":3,"result""#) })
        let succeeded = try #require(lines.firstIndex { $0.contains(#""state":"succeeded""#) })
        #expect(edited < succeeded, "the edit was answered while the password was hashing")
        #expect(lines.contains { $0.contains(#""form":"g","field":"password","state":"failed","code":"password.tooShort""#) })
    }

    @Test func aStoreThatCannotBeOpenedExits74WithAMessage() throws {
        let folder = try TemporaryDirectory()
        let garbage = folder.path("garbage.db")
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: garbage))
        let notDatabase = try Subprocess.run(["--store", garbage], input: "")
        #expect(notDatabase.status == 74)
        #expect(notDatabase.stderr == "signup-rpc: '\(garbage)' is not an SQLite database; point --store at a new file or a store made by signup-rpc\n")
        let missing = try Subprocess.run(["--store", folder.path("no/such/folder/users.db")], input: "")
        #expect(missing.status == 74)
        #expect(missing.stderr.hasPrefix("signup-rpc: cannot open the user store"))
    }

    @Test(arguments: [
        ["--store", "a.db", "--directory", "d.json"],
        ["--store", "a.db", "--availability-url", "http://127.0.0.1:1/{username}", "--signup-url", "http://127.0.0.1:1/s"],
        ["--availability-url", "http://127.0.0.1:1/{username}"],
        ["--availability-url", "http://127.0.0.1:1/users", "--signup-url", "http://127.0.0.1:1/s"],
        ["--clock", "virtual", "--availability-url", "http://127.0.0.1:1/{username}", "--signup-url", "http://127.0.0.1:1/s"],
    ])
    func backendChoicesThatDoNotFitAreUsageErrors(arguments: [String]) throws {
        let output = try Subprocess.run(arguments, input: "")
        #expect(output.status == 64)
        #expect(output.stderr.contains("usage: signup-rpc"))
    }
}

/// Sign up in one process, log in from another, against the same SQLite store.
@Suite struct LoginEndToEndTests {
    private static func login(_ username: String, _ password: String, id: Int, at time: Int) -> [String] {
        [#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"l","field":"username","value":"\#(username)","at":\#(time)}}"#,
         #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"l","field":"password","value":"\#(password)","at":\#(time)}}"#,
         #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"l","at":\#(time)}}"#]
    }

    @Test func signUpThenLogInFromASecondProcess() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let signup = [
            #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"f","values":{"username":"grace","password":"Hopper-1906","repeatedPassword":"Hopper-1906"}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"f","at":10}}"#,
        ].joined(separator: "\n") + "\n"
        let first = try Subprocess.run(["--clock", "virtual", "--debounce-ms", "0", "--store", store], input: signup)
        #expect(first.stdout.contains(#""state":"succeeded","account":{"username":"grace"}"#))

        let attempts = [#"{"jsonrpc":"2.0","id":0,"method":"form.open","params":{"kind":"login","form":"l"}}"#]
            + Self.login("grace", "wrong", id: 1, at: 10)
            + Self.login("nobody", "Hopper-1906", id: 2, at: 20)
            + Self.login("GRACE", "Hopper-1906", id: 3, at: 30)
        let second = try Subprocess.run(["--clock", "virtual", "--store", store], input: attempts.joined(separator: "\n") + "\n")
        let submissions = second.lines.filter { $0.contains("form.submissionChanged") }
        #expect(submissions.count == 6)
        #expect(submissions[0] == #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"l","state":"loggingIn","at":10}}"#)
        #expect(submissions[1] == #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"l","state":"loginFailed","code":"login.wrongCredentials","params":{},"message":"Wrong username or password","at":10}}"#)
        #expect(submissions[3] == #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"l","state":"loginFailed","code":"login.wrongCredentials","params":{},"message":"Wrong username or password","at":20}}"#)
        let loggedIn = submissions[5]
        #expect(loggedIn.hasPrefix(#"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"l","state":"loggedIn","account":{"token":""#))
        let tokenStart = try #require(loggedIn.range(of: #""token":""#)).upperBound
        let token = String(loggedIn[tokenStart...].prefix { $0 != "\"" })
        #expect(token.count == 64)

        // The store keeps the session by its token's digest only.
        let reopened = try UserStore(path: store)
        #expect(try reopened.username(forToken: token) == "grace")
        var everything = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            everything += try Data(contentsOf: folder.url.appendingPathComponent(file))
        }
        #expect(everything.range(of: Data(token.utf8)) == nil)
        #expect(everything.range(of: Data(SHA256.hexDigest(token).utf8)) != nil)
        #expect(everything.range(of: Data("Hopper-1906".utf8)) == nil)
    }
}

/// Add a friend in one process, update it from another, against the same SQLite store.
@Suite struct FriendStoreEndToEndTests {
    private static func fill(_ form: String, _ first: String, _ last: String, _ phone: String, submit id: Int, at time: Int) -> [String] {
        ["firstName": first, "lastName": last, "phone": phone].sorted { $0.key < $1.key }.map { field, value in
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(value)","at":\#(time)}}"#
        } + [#"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)","at":\#(time)}}"#]
    }

    private static func outcomes(_ lines: [String]) -> [String] {
        lines.filter { $0.contains("form.submissionChanged") && !$0.contains(#""state":"submitting""#) }
    }

    @Test func addInOneProcessThenOpenTheSavedFriendAndUpdateItInAnother() throws {
        let folder = try TemporaryDirectory()
        let store = folder.path("users.db")
        let adding = [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"friend","form":"a"}}"#]
            + Self.fill("a", "Ada", "Lovelace", "+442079460000", submit: 1, at: 10)
            + [#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"friend","form":"b"}}"#]
            + Self.fill("b", "Someone", "Else", "+442079460000", submit: 2, at: 20)
        let first = try Subprocess.run(["--clock", "virtual", "--store", store], input: adding.joined(separator: "\n") + "\n")
        #expect(Self.outcomes(first.lines) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"a","state":"succeeded","friend":{"firstName":"Ada","id":"1","lastName":"Lovelace","phone":"+442079460000"},"at":10}}"#,
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"b","state":"failed","code":"friend.conflict","params":{},"message":"A friend with this phone number already exists","at":20}}"#,
        ])

        let updating = [
            #"{"jsonrpc":"2.0","id":0,"method":"form.open","params":{"kind":"friend","form":"u","record":{"id":"1","firstName":"Ada","lastName":"Lovelace","phone":"+442079460000"}}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"u","field":"lastName","value":"King","at":10}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"u","at":10}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"kind":"friend","form":"gone","record":{"id":"99","firstName":"No","lastName":"One","phone":"1234567"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"gone","at":20}}"#,
        ]
        let second = try Subprocess.run(["--clock", "virtual", "--store", store], input: updating.joined(separator: "\n") + "\n")
        #expect(second.lines.contains(#"{"jsonrpc":"2.0","id":0,"result":{"form":"u","kind":"friend","version":0,"recordId":"1","locale":"en"}}"#))
        #expect(Self.outcomes(second.lines) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"u","state":"succeeded","friend":{"firstName":"Ada","id":"1","lastName":"King","phone":"+442079460000"},"at":10}}"#,
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"gone","state":"failed","code":"friend.notFound","params":{},"message":"This friend no longer exists","at":20}}"#,
        ])
        let friends = try UserStore(path: store).friends()
        #expect(friends.map(\.id) == ["1"])
        #expect(friends.map(\.friend) == [Friend(firstName: "Ada", lastName: "King", phone: "+442079460000")])
    }
}
