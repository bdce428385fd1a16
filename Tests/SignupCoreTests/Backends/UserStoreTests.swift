import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport

@Suite struct PasswordHasherTests {
    @Test func aYescryptHashVerifiesTheRightPasswordOnly() throws {
        let hash = try PasswordHasher.hash("correct horse battery staple")
        #expect(hash.hasPrefix("$y$"))
        #expect(!hash.contains("correct horse"))
        #expect(PasswordHasher.verify("correct horse battery staple", against: hash))
        #expect(!PasswordHasher.verify("correct horse battery stapl", against: hash))
        #expect(!PasswordHasher.verify("", against: hash))
        #expect(!PasswordHasher.verify("anything", against: "not a hash"))
    }

    @Test func everyHashHasItsOwnSalt() throws {
        let first = try PasswordHasher.hash("same password")
        let second = try PasswordHasher.hash("same password")
        #expect(first != second)
        #expect(PasswordHasher.verify("same password", against: first))
        #expect(PasswordHasher.verify("same password", against: second))
    }
}

@Suite struct UserStoreTests {
    @Test func friendsAreAddedUpdatedAndKeptOnePerPhoneNumber() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        let ada = Friend(firstName: "Ada", lastName: "Lovelace", phone: "+442079460000")
        let grace = Friend(firstName: "Grace", lastName: "Hopper", phone: "+15550100")
        do {
            let store = try UserStore(path: path)
            #expect(try store.addFriend(ada) == .saved(id: "1"))
            #expect(try store.addFriend(grace) == .saved(id: "2"))
            #expect(try store.addFriend(Friend(firstName: "X", lastName: "Y", phone: "+15550100")) == .conflict)
            #expect(try store.updateFriend("1", to: Friend(firstName: "Ada", lastName: "King", phone: "+442079460000")) == .saved(id: "1"))
            #expect(try store.updateFriend("1", to: Friend(firstName: "Ada", lastName: "King", phone: "+15550100")) == .conflict)
            #expect(try store.updateFriend("3", to: ada) == .notFound)
            #expect(try store.updateFriend("one", to: ada) == .notFound)
        }
        let reopened = try UserStore(path: path)
        let friends = try reopened.friends()
        #expect(friends.map(\.id) == ["1", "2"])
        #expect(friends.map(\.friend) == [Friend(firstName: "Ada", lastName: "King", phone: "+442079460000"), grace])
    }

    @Test func registrationsPersistAndNamesAreUniqueCaseInsensitively() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        do {
            let store = try UserStore(path: path)
            #expect(try !store.isRegistered("Zoë"))
            #expect(try store.register("Zoë", passwordHash: PasswordHasher.hash("pw-one")))
            #expect(try !store.register("ZOË", passwordHash: PasswordHasher.hash("pw-two")))
            #expect(try store.isRegistered("zoë"))
        }
        let reopened = try UserStore(path: path)
        #expect(try reopened.registeredNames() == ["Zoë"])
        let hash = try #require(try reopened.passwordHash(of: "zoË"))
        #expect(PasswordHasher.verify("pw-one", against: hash))
        #expect(try reopened.integrityCheck() == "ok")
    }

    @Test func twoConnectionsRacingForOneNameHaveExactlyOneWinner() throws {
        let folder = try TemporaryDirectory()
        let first = try UserStore(path: folder.path("users.db"))
        let second = try UserStore(path: folder.path("users.db"))
        #expect(try !first.isRegistered("alice") && !second.isRegistered("alice"))
        let results = [try first.register("alice", passwordHash: "$y$x"), try second.register("Alice", passwordHash: "$y$y")]
        #expect(results == [true, false])
    }

    @Test func unusableFilesAreRefusedWithAnActionableError() throws {
        let folder = try TemporaryDirectory()
        let garbage = folder.path("garbage.db")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: StoreError.notADatabase(path: garbage)) { try UserStore(path: garbage) }
        let missingFolder = folder.path("missing/users.db")
        #expect { try UserStore(path: missingFolder) } throws: { error in
            guard case .cannotOpen(let path, _) = error as? StoreError else { return false }
            return path == missingFolder
        }
    }

    @Test func aStoreLockedBeyondTheBusyTimeoutIsReportedAsLocked() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        let store = try UserStore(path: path, busyTimeout: .milliseconds(50))
        let holder = try SQLiteConnection(path: path, busyTimeout: .milliseconds(50))
        try holder.execute("BEGIN EXCLUSIVE")
        #expect(throws: StoreError.locked(path: path)) { try store.register("zed", passwordHash: "$y$x") }
        #expect(throws: StoreError.locked(path: path)) { try UserStore(path: path, busyTimeout: .milliseconds(50)) }
        try holder.execute("COMMIT")
        #expect(try store.register("zed", passwordHash: "$y$x"))
    }

    @Test func aVersionOneStoreIsMigratedKeepingItsUsers() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        do {
            let old = try SQLiteConnection(path: path, busyTimeout: .seconds(1))
            try old.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL, username_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, created_at INTEGER NOT NULL)")
            try old.execute("INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('Old', 'old', '$y$x', 0)")
            try old.execute("PRAGMA user_version = 1")
        }
        let store = try UserStore(path: path)
        #expect(try store.registeredNames() == ["Old"])
        try store.saveSession(token: "abc", for: "old")
        #expect(try store.username(forToken: "abc") == "Old")
        #expect(try store.addFriend(Friend(firstName: "A", lastName: "B", phone: "1234567")) == .saved(id: "1"))
        let rows = try SQLiteConnection(path: path, busyTimeout: .seconds(1)).query("PRAGMA user_version")
        #expect(rows.first?.first == .integer(Int64(UserStore.schemaVersion)))
    }

    @Test func aNewerSchemaIsNotTouched() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("users.db")
        _ = try UserStore(path: path)
        let connection = try SQLiteConnection(path: path, busyTimeout: .seconds(1))
        try connection.execute("PRAGMA user_version = 9")
        #expect(throws: StoreError.newerSchema(path: path, version: 9)) { try UserStore(path: path) }
    }
}

@Suite struct SQLiteDirectoryTests {
    private func signUp(_ form: FormPipeline, _ username: String, _ password: String) throws {
        try form.edit("username", to: username)
        try form.edit("password", to: password)
        try form.edit("repeatedPassword", to: password)
    }

    @Test func theSignupPipelineRegistersThroughTheStoreAndLosingARaceAnswersTaken() throws {
        let folder = try TemporaryDirectory()
        let scheduler = VirtualTimeScheduler()
        let directory = SQLiteDirectory(store: try UserStore(path: folder.path("users.db")),
                                        runner: InlineWorkRunner(scheduler: scheduler))
        let services = FormServices(directory: directory)
        let first = FormPipeline(definition: .signup, services: services, scheduler: scheduler, debounce: .zero)
        let second = FormPipeline(definition: .signup, services: services, scheduler: scheduler, debounce: .zero)
        try signUp(first, "alice", "first-secret")
        try signUp(second, "Alice", "second-secret")
        scheduler.run()
        #expect(first.snapshot.submitEnabled && second.snapshot.submitEnabled)
        try first.submit()
        try second.submit()
        scheduler.run()
        #expect(first.snapshot.submission == .succeeded(account: .object(["username": "alice"])))
        #expect(second.snapshot.submission == .failed(SubmissionFailure(Message("username.taken", "Username already taken"))))
        #expect(try directory.verify(username: "ALICE", password: "first-secret"))
        #expect(try !directory.verify(username: "alice", password: "second-secret"))
        #expect(try !directory.verify(username: "nobody", password: "first-secret"))

        let third = FormPipeline(definition: .signup, services: services, scheduler: scheduler, debounce: .zero)
        try third.edit("username", to: "alice")
        scheduler.run()
        #expect(third.snapshot.fields[0].result.code == "username.taken")
    }

    @Test func theClearPasswordIsNeverWrittenToTheDatabaseFiles() throws {
        let folder = try TemporaryDirectory()
        let scheduler = VirtualTimeScheduler()
        let store = try UserStore(path: folder.path("users.db"))
        let directory = SQLiteDirectory(store: store, runner: InlineWorkRunner(scheduler: scheduler))
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory),
                                scheduler: scheduler, debounce: .zero)
        let password = "Pl41nT3xtCanary"
        try signUp(form, "carol", password)
        scheduler.run()
        try form.submit()
        scheduler.run()
        #expect(try store.registeredNames() == ["carol"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(files.contains("users.db"))
        var everything = Data()
        for file in files {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(file))
            #expect(bytes.range(of: Data(password.utf8)) == nil, "\(file) holds the clear password")
            everything += bytes
        }
        // The row itself is on disk (database or write-ahead log), so the search above saw it.
        #expect(everything.range(of: Data("carol".utf8)) != nil)
        #expect(everything.range(of: Data("$y$".utf8)) != nil)
    }

    @Test func aStoreFailureAtRunTimeIsBackendUnavailable() throws {
        let folder = try TemporaryDirectory()
        let scheduler = VirtualTimeScheduler()
        let path = folder.path("users.db")
        let store = try UserStore(path: path)
        let directory = SQLiteDirectory(store: store, runner: InlineWorkRunner(scheduler: scheduler))
        // Another connection drops the table underneath the running store.
        try SQLiteConnection(path: path, busyTimeout: .seconds(1)).execute("DROP TABLE users")
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory),
                                scheduler: scheduler, debounce: .zero)
        try form.edit("username", to: "dave")
        scheduler.run()
        #expect(form.snapshot.fields[0].result == Message("backend.unavailable", "Error contacting server").result(.failed))
    }
}

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func theStandardTestVectors(input: String, digest: String) {
        #expect(SHA256.hexDigest(input) == digest)
    }

    @Test func aMillionAs() {
        #expect(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).map { String($0, radix: 16) }.count == 32)
        #expect(SHA256.hexDigest(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
