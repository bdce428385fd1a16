import Testing
import SignupCore
@testable import SignupServer

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
        (#"{"replies":[{"ask":{"call":"fly"}}]}"#, "$.replies[0]: unknown call 'fly' (availability, register, logIn, addFriend, updateFriend, check)"),
        (#"{"replies":[{"ask":{"call":"availability","username":"a"},"answer":{"availability":"maybe"}}]}"#, "$.replies[0]: availability 'maybe' is not available or taken"),
        (#"{"replies":[{"ask":{"call":"availability","username":"a"},"answer":{"availability":"taken"}}]}"#, "$.replies[0].at: must be a whole number of milliseconds, from 0"),
    ])
    func eachBadMemberIsNamedByItsPath(text: String, problem: String) {
        #expect(throws: DirectoryFile.Problem(path: String(problem.prefix { $0 != ":" }), reason: String(problem.drop { $0 != ":" }.dropFirst(2)))) {
            try DirectoryFile.parse(Array(text.utf8))
        }
    }
}
