import Testing
import SignupBackends
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The scripted directory's file: accounts and friends load, and each bad member is named by its path.
@Suite struct DirectoryFileTests {
    @Test func accountsAreHashedAndFriendsKeptById() throws {
        let script = try DirectoryFile.parse(Array("""
            {"accounts":[{"username":"grace","password":"Hopper-1906"},{"username":"ada","passwordHash":"$y$j9T$abc$def"}],
             "friends":[{"id":"1","firstName":"Grace","lastName":"Hopper","phone":"+15550100"}],
             "protectedFriends":["1"],"failingPhones":["+15550199"]}
            """.utf8))
        let hash = try #require(script.accounts["grace"])
        #expect(hash.hasPrefix("$y$") && !hash.contains("Hopper-1906"))
        #expect(PasswordHasher.verify("Hopper-1906", against: hash))
        #expect(script.accounts["ada"] == "$y$j9T$abc$def")
        #expect(script.friends == ["1": Friend(firstName: "Grace", lastName: "Hopper", phone: "+15550100")])
        #expect(script.protectedFriends == ["1"] && script.failingPhones == ["+15550199"])
    }

    @Test func repliesAnswerTheirQuestionsInOrder() throws {
        let script = try DirectoryFile.parse(Array("""
            {"replies":[{"ask":{"call":"availability","username":"ada"},"at":500,"answer":{"availability":"taken"}},
                        {"ask":{"call":"logIn","username":"ada","password":"xyz"}}]}
            """.utf8))
        #expect(script.replies == [
            .init(question: .availability(username: "ada"), time: 500, answer: .availability(.taken)),
            .init(question: .login(username: "ada", password: "xyz"), time: 0, answer: nil),
        ])
    }

    @Test func checksAnswerByValueAndRepliesMayAnswerChecks() throws {
        let script = try DirectoryFile.parse(Array("""
            {"checks":{"invite":{"rejected":["NOPE"],"failing":["DOWN"],"latencyMs":{"min":10,"max":20},
                                 "answers":{"OLD":{"code":"invite.expired","message":"Expired on {date}","params":{"date":"2026-01-31","n":2}}}}},
             "replies":[{"ask":{"call":"check","check":"invite","inputs":{"value":"X","email":"a@b.c"}},"at":40,
                         "answer":{"verdict":"rejected","code":"invite.used","message":"Used","params":{}}}]}
            """.utf8))
        let invite = try #require(script.checks["invite"])
        #expect(invite.rejected == ["NOPE"] && invite.failing == ["DOWN"] && invite.latency == .uniform(10...20))
        #expect(invite.answers == ["OLD": ReportedIssue(field: nil, code: "invite.expired", message: "Expired on {date}", params: ["date": "2026-01-31", "n": 2])])
        #expect("\(invite.answer(for: "OLD"))" == "\(Result<CheckVerdict, any Error>.success(.rejected(invite.answers["OLD"]!)))")
        #expect("\(invite.answer(for: "NOPE"))" == "success(SignupCore.CheckVerdict.rejected(nil))")
        #expect("\(invite.answer(for: "DOWN"))" == "failure(backend unavailable: scripted server error)")
        #expect("\(invite.answer(for: "ANY"))" == "success(SignupCore.CheckVerdict.passed)")
        #expect(script.replies == [.init(
            question: .check(name: "invite", inputs: ["value": "X", "email": "a@b.c"]), time: 40,
            answer: .verdict(.rejected(ReportedIssue(field: nil, code: "invite.used", message: "Used"))))])
    }

    @Test func submissionsAnswerByFieldValues() throws {
        let script = try DirectoryFile.parse(Array("""
            {"submissions":{"join":{"latencyMs":200,"status":201,"body":{"id":7},
              "cases":[{"when":{"email":"bea@example.com"},"status":422,"body":{"email":["Taken"]}},
                       {"when":{"email":"down@example.com"},"error":"timedOut"},
                       {"when":{"email":"odd@example.com"},"status":302}]}}}
            """.utf8))
        let join = try #require(script.submissions["join"])
        #expect(join.latency == .fixed(.milliseconds(200)))
        #expect(join.answer(for: ["email": "bea@example.com"]) == .submission(.refused(status: 422, body: .object(["email": .array(["Taken"])]))))
        #expect(join.answer(for: ["email": "down@example.com"]) == .failure(.timedOut))
        #expect(join.answer(for: ["email": "odd@example.com"]) == .failure(.unavailable(reason: "HTTP status 302")))
        #expect(join.answer(for: ["email": "ann@example.com"]) == .submission(.accepted(.object(["id": 7]))))
        #expect(try DirectoryFile.parse(Array(#"{"submissions":{"join":{}}}"#.utf8)).submissions["join"]?.answer(for: [:])
            == .submission(.accepted(.object([:]))))
    }

    @Test(arguments: [
        (#"{"submissions":[]}"#, "$.submissions: must be an object of form kinds"),
        (#"{"submissions":{"j":{"stauts":201}}}"#, "$.submissions.j.stauts: is not allowed here (allowed: body, cases, error, latencyMs, status)"),
        (#"{"submissions":{"j":{"status":99}}}"#, "$.submissions.j.status: must be an HTTP status, 100 to 599"),
        (#"{"submissions":{"j":{"cases":[{"status":201}]}}}"#, "$.submissions.j.cases[0].when: must be an object of field values"),
        (#"{"submissions":{"j":{"cases":[{"when":{"a":1}}]}}}"#, "$.submissions.j.cases[0].when.a: must be a string"),
        (#"{"submissions":{"j":{"error":"lost"}}}"#, #"$.submissions.j.error: must be "unavailable" or "timedOut""#),
        (#"{"submissions":{"j":{"error":"timedOut","status":500}}}"#, "$.submissions.j.error: cannot be given with status or body"),
        (#"{"replies":[{"ask":{"call":"submit","kind":"j","fields":{}},"answer":{"submission":"refused","status":200}}]}"#,
         "$.replies[0]: a refused submission needs a status from 400 to 499"),
    ])
    func eachBadSubmissionMemberIsNamedByItsPath(text: String, problem: String) {
        #expect(throws: DirectoryFile.Problem(path: String(problem.prefix { $0 != ":" }), reason: String(problem.drop { $0 != ":" }.dropFirst(2)))) {
            try DirectoryFile.parse(Array(text.utf8))
        }
    }

    @Test(arguments: [
        (#"{"checks":[]}"#, "$.checks: must be an object of check names"),
        (#"{"checks":{"a b":{}}}"#, "$.checks.a b: is not a check name (1 to 64 letters, digits, '_', '.' or '-')"),
        (#"{"checks":{"x":{"taken":[]}}}"#, "$.checks.x.taken: is not a check setting (rejected, failing, answers, latencyMs)"),
        (#"{"checks":{"x":{"answers":{"V":{"code":"c"}}}}}"#, #"$.checks.x.answers.V: must be {"code": …, "message": …, "params": {…}}, code and message strings"#),
        (#"{"checks":{"x":{"answers":{"V":{"code":"c","message":"m","why":1}}}}}"#, "$.checks.x.answers.V.why: is not allowed here (allowed: code, message, params)"),
        (#"{"checks":{"x":{"latencyMs":-1}}}"#, #"$.checks.x.latencyMs: must be milliseconds (a whole number of 0 or more) or {"min": N, "max": M} with min ≤ max"#),
        (#"{"replies":[{"ask":{"call":"check","check":"x","inputs":{"value":1}}}]}"#, "$.replies[0]: inputs value must be a string"),
        (#"{"replies":[{"ask":{"call":"check","check":"x","inputs":{}},"answer":{"verdict":"maybe"}}]}"#, "$.replies[0]: verdict 'maybe' is not passed or rejected"),
    ])
    func eachBadCheckMemberIsNamedByItsPath(text: String, problem: String) {
        #expect(throws: DirectoryFile.Problem(path: String(problem.prefix { $0 != ":" }), reason: String(problem.drop { $0 != ":" }.dropFirst(2)))) {
            try DirectoryFile.parse(Array(text.utf8))
        }
    }

    @Test(arguments: [
        (#"{"accounts":{}}"#, "$.accounts: must be an array of objects"),
        (#"{"accounts":[{"username":"a"}]}"#, #"$.accounts[0]: needs exactly one of "password" and "passwordHash""#),
        (#"{"accounts":[{"username":"a","password":"x","passwordHash":"$y$"}]}"#, #"$.accounts[0]: needs exactly one of "password" and "passwordHash""#),
        (#"{"accounts":[{"password":"x"}]}"#, "$.accounts[0].username: is required: a non-empty string"),
        (#"{"accounts":[{"username":"a","passwordHash":"plain"}]}"#, #"$.accounts[0].passwordHash: must be a crypt hash such as "$y$…""#),
        (#"{"accounts":[{"username":"a","password":7}]}"#, "$.accounts[0].password: must be a string, not number"),
        (#"{"friends":[{"id":"1","firstName":"a","lastName":"b"}]}"#, "$.friends[0].phone: is required: a string"),
        (#"{"friends":[{"id":"1","firstName":"a","lastName":"b","phone":"1","age":"3"}]}"#, "$.friends[0].age: is not allowed here (allowed: firstName, id, lastName, phone)"),
        (#"{"friends":[{"id":"1","firstName":"a","lastName":"b","phone":"1"},{"id":"1","firstName":"c","lastName":"d","phone":"2"}]}"#, "$.friends[1].id: repeats the id '1'"),
        (#"{"protectedFriends":[1]}"#, "$.protectedFriends[0]: must be a string, not number"),
        (#"{"replies":{}}"#, "$.replies: must be an array of replies"),
        (#"{"replies":[{"at":5}]}"#, "$.replies[0]: needs ask, the question"),
        (#"{"replies":[{"ask":{"call":"fly"}}]}"#, "$.replies[0]: unknown call 'fly' (availability, register, logIn, addFriend, updateFriend, check, submit)"),
        (#"{"replies":[{"ask":{"call":"availability","username":"a"},"answer":{"availability":"maybe"}}]}"#, "$.replies[0]: availability 'maybe' is not available or taken"),
        (#"{"replies":[{"ask":{"call":"availability","username":"a"},"answer":{"availability":"taken"}}]}"#, "$.replies[0].at: must be a whole number of milliseconds, from 0"),
    ])
    func eachBadMemberIsNamedByItsPath(text: String, problem: String) {
        #expect(throws: DirectoryFile.Problem(path: String(problem.prefix { $0 != ":" }), reason: String(problem.drop { $0 != ":" }.dropFirst(2)))) {
            try DirectoryFile.parse(Array(text.utf8))
        }
    }
}
