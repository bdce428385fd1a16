import Foundation
import Testing
import SignupCore
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// `--record` and `signup-rpc replay`: real-clock sessions recorded against real backends replay
/// on the virtual clock to the same events, and secrets never reach a recording.
@Suite struct RecordingTests {
    private static func edit(_ form: String, _ field: String, _ value: String, id: Int? = nil) -> String {
        let idMember = id.map { #""id":\#($0),"# } ?? ""
        return #"{"jsonrpc":"2.0",\#(idMember)"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(value)"}}"#
    }

    private static func submit(_ form: String, id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"form.submit","params":{"form":"\#(form)"}}"#
    }

    /// Types `value` into `field` a character at a time, as a person would, without waiting.
    private static func typing(_ form: String, _ field: String, _ value: String) -> [String] {
        (1...value.count).map { edit(form, field, String(value.prefix($0))) }
    }

    /// A sign-up, a failed and a good login, driven by a client that waits for what it needs to see.
    /// Returns every line the client received and the login's token.
    private static func session(_ child: InteractiveProcess, username: String, password: String) -> (lines: [String], token: String) {
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"signup","form":"s"}}"#])
        child.send(typing("s", "username", username))
        lines += child.readLines { $0.contains(#""field":"username","state":"ok""#) }
        child.send(typing("s", "password", password) + [edit("s", "repeatedPassword", password)])
        lines += child.readLines { $0.contains(#""field":"repeatedPassword","state":"ok""#) }
        child.send([submit("s", id: 2)])
        lines += child.readLines { $0.contains(#""state":"succeeded""#) }
        child.send([
            #"{"jsonrpc":"2.0","id":3,"method":"form.open","params":{"kind":"login","form":"l"}}"#,
            edit("l", "username", username), edit("l", "password", "Wrong-" + password), submit("l", id: 4),
        ])
        lines += child.readLines { $0.contains(#""state":"loginFailed""#) }
        child.send([edit("l", "password", password), submit("l", id: 5)])
        lines += child.readLines { $0.contains(#""state":"loggedIn""#) }
        let loggedIn = lines.last ?? ""
        let token = loggedIn.range(of: #""token":""#).map { String(loggedIn[$0.upperBound...].prefix { $0 != "\"" }) } ?? ""
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        return (lines, token)
    }

    private static func encoded(_ json: JSON) -> String {
        var writer = JSONWriter()
        writer.json(json)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The recording's outputs are what the client read; its replay writes them again; nothing
    /// secret is in it.
    private static func checkRecording(at path: String, received: [String], secrets: [String]) throws {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        for secret in secrets where !secret.isEmpty {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "the recording holds a secret")
        }
        let recording = try Recording.read(Array(bytes))
        // The client read real tokens; the recording has their placeholders, of the same length.
        #expect(recording.outputs.map(encoded).map(maskingTokens) == received.map(maskingTokens))
        let outcome = try Replayer(recording: recording).run()
        #expect(outcome.divergence == nil, "\(ReplayCommand.report(of: outcome, recording: recording, path: path))")
        #expect(outcome.replayed == recording.outputs)
        #expect(outcome.unrecordedQuestions.isEmpty)
        let replay = try Subprocess.run(["replay", path], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    /// Each token's value as `•` repeated to its length.
    private static func maskingTokens(_ line: String) -> String {
        var masked = line
        for key in [#""token":""#, #""sessionToken":""#] {
            guard let start = masked.range(of: key) else { continue }
            let value = masked[start.upperBound...].prefix { $0 != "\"" }
            masked.replaceSubrange(start.upperBound..<value.endIndex, with: String(repeating: "•", count: value.count))
        }
        return masked
    }

    @Test func aRealClockSessionAgainstTheSQLiteStoreReplaysToTheSameEvents() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "40", "--store", folder.path("users.sqlite3"), "--record", recording,
        ])
        let (lines, token) = Self.session(child, username: "grace", password: "Hopper-1906x")
        #expect(child.wait(atMost: 30) == 0)
        #expect(token.count == 64)
        try Self.checkRecording(at: recording, received: lines, secrets: ["Hopper-1906x", "Wrong-Hopper-1906x", token])
    }

    @Test func aRealClockSessionAgainstAJitteryHTTPServerReplaysToTheSameEvents() throws {
        let jitter = LockedGenerator(seed: 27)
        let server = try LoopbackHTTPServer { request in
            let after = jitter.milliseconds(upTo: 60)
            switch (request.method, request.path) {
            case ("GET", "/users/octocat"): return .respond(status: 200, after: after)
            case ("GET", _): return .respond(status: 404, after: after)
            case ("POST", "/signup"): return .respond(status: 201, body: #"{"username":"ada","id":7,"sessionToken":"tok-SIGNUP-4242"}"#, after: after)
            case ("POST", "/login") where request.body.contains(#""password":"Lovelace-1815""#):
                return .respond(status: 200, body: #"{"token":"opaque-LOGIN-7777"}"#, after: after)
            case ("POST", "/login"): return .respond(status: 401, after: after)
            default: return .respond(status: 404, after: after)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0", "--record", recording,
            "--availability-url", server.url("/users/{username}"), "--signup-url", server.url("/signup"),
            "--login-url", server.url("/login"),
        ])
        let (lines, token) = Self.session(child, username: "ada", password: "Lovelace-1815")
        #expect(child.wait(atMost: 30) == 0)
        #expect(token == "opaque-LOGIN-7777")
        #expect(lines.contains { $0.contains("tok-SIGNUP-4242") })
        try Self.checkRecording(at: recording, received: lines,
                                secrets: ["Lovelace-1815", "Wrong-Lovelace-1815", token, "tok-SIGNUP-4242"])
    }

    /// Every example, recorded, replays to its own output.
    @Test(arguments: ["double-tap", "api-signup", "friend-failures", "invite-signup", "login", "phone-signup", "signup-github", "stale-check", "taken-name"])
    func anExampleRecordedReplaysToItsOutput(_ name: String) throws {
        let root = Subprocess.packageRoot.appendingPathComponent("Examples")
        let input = try Data(contentsOf: root.appendingPathComponent("\(name).jsonl"))
        let flagsFile = root.appendingPathComponent("\(name).flags").path
        // Paths in flags are the package root's; made absolute, as the tests run elsewhere.
        let flags = ((try? String(contentsOfFile: flagsFile, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).map(String.init) ?? [])
            .map { $0.hasPrefix("Examples/") ? Subprocess.packageRoot.appendingPathComponent($0).path : $0 }
        let run = try FixtureRun(input: Array(input), flags: flags, recording: true)
        let expected = try String(contentsOf: root.appendingPathComponent("\(name).out.jsonl"), encoding: .utf8)
        #expect(run.output.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined() == expected)
        let recording = try Recording.read(run.recording)
        let outcome = try Replayer(recording: recording).run()
        #expect(outcome.divergence == nil)
        #expect(outcome.replayed == recording.outputs)
    }

    /// Delaying the recorded answer for "alicia" from 900 ms to 950 ms moves exactly its event.
    @Test func aRecordingWithALaterAnswerReplaysToThePredictedDifference() throws {
        let input = try Data(contentsOf: Subprocess.packageRoot.appendingPathComponent("Examples/stale-check.jsonl"))
        let run = try FixtureRun(input: Array(input), flags: [], recording: true)
        let text = String(decoding: run.recording, as: UTF8.self)
        let original = #"{"t":900,"answer":2,"availability":"available"}"#
        #expect(text.contains(original))
        let edited = try Recording.read(Array(text.replacingOccurrences(of: original, with: #"{"t":950,"answer":2,"availability":"available"}"#).utf8))
        let outcome = try Replayer(recording: edited).run()
        let predicted = edited.outputs.map(Self.encoded).map {
            $0.replacingOccurrences(of: #""code":"username.available","params":{},"message":"Username available","version":2,"at":900}"#,
                                    with: #""code":"username.available","params":{},"message":"Username available","version":2,"at":950}"#)
        }
        #expect(outcome.replayed.map(Self.encoded) == predicted)
        let divergence = try #require(outcome.divergence)
        #expect(divergence.index == 6)
        #expect(divergence.time == 900)
        let report = ReplayCommand.report(of: outcome, recording: edited, path: "edited.jsonl")
        #expect(report.hasPrefix("signup-rpc replay: edited.jsonl: the replay differs from the recording at output message 7 (recorded at 900 ms):\n"))
        #expect(report.contains(#"  recorded: {"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":2,"at":900}}"#))
        #expect(report.contains(#"  replayed: {"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"default","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":2,"at":950}}"#))
        #expect(report.contains(#"    700 ms  ask #2 {"call":"availability","username":"alicia"}"#))

        // The binary says the same and exits 1.
        let folder = try TemporaryDirectory()
        let path = folder.path("edited.jsonl")
        try Data(text.replacingOccurrences(of: original, with: #"{"t":950,"answer":2,"availability":"available"}"#).utf8).write(to: URL(fileURLWithPath: path))
        let replay = try Subprocess.run(["replay", path], input: "")
        #expect(replay.status == 1)
        #expect(replay.stderr.contains("at output message 7 (recorded at 900 ms)"))
    }

    /// A session with named checks, written as a fixture: its directory replies to each check by
    /// name and inputs, and the fixture runs to the recorded events.
    @Test func aReplayOfNamedChecksWrittenAsAFixtureRunsToTheRecordedEvents() throws {
        let root = Subprocess.packageRoot.appendingPathComponent("Examples")
        let input = try Data(contentsOf: root.appendingPathComponent("api-signup.jsonl"))
        let flags = ["--forms", root.appendingPathComponent("api").path, "--directory", root.appendingPathComponent("directories/invite.json").path]
        let run = try FixtureRun(input: Array(input), flags: flags, recording: true)
        let folder = try TemporaryDirectory()
        try Data(run.recording).write(to: URL(fileURLWithPath: folder.path("invite.rec.jsonl")))
        let prefix = folder.path("recorded-invite")
        let replay = try Subprocess.run(["replay", folder.path("invite.rec.jsonl"), "--write-fixture", prefix], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
        let directory = try String(contentsOfFile: prefix + ".directory.json", encoding: .utf8)
        #expect(directory.hasPrefix(#"{"replies":[{"ask":{"call":"check","check":"inviteCode","inputs":{"email":"bea@example.com","value":"OLDX-2024"}},"at":720,"answer":{"verdict":"rejected","code":"invite.expired","message":"This invite expired on {date}","params":{"date":"2026-01-31"}}},"#))
        let fixtureFlags = try String(contentsOfFile: prefix + ".flags", encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
        let output = try Subprocess.run(["--clock", "virtual"] + fixtureFlags, input: try Data(contentsOf: URL(fileURLWithPath: prefix + ".jsonl")))
        #expect(output.lines == (try Recording.read(run.recording)).outputs.map(Self.encoded))
        // The marble diagram names each check and the value it asked about.
        let marbles = try Subprocess.run([folder.path("invite.rec.jsonl")], input: "", program: "signup-marbles")
        #expect(marbles.status == 0)
        #expect(["check inviteCode OLDX-2024", "check inviteCode NOPE-0000", "invite.expired", "passed"].allSatisfy(marbles.stdout.contains))
    }

    /// A replay written as a fixture runs under the harness's command to the recorded events.
    @Test func aReplayWrittenAsAFixtureRunsToTheRecordedEvents() throws {
        let input = try Data(contentsOf: Subprocess.packageRoot.appendingPathComponent("Examples/login.jsonl"))
        let run = try FixtureRun(input: Array(input), flags: [], recording: true)
        let folder = try TemporaryDirectory()
        try Data(run.recording).write(to: URL(fileURLWithPath: folder.path("login.rec.jsonl")))
        let prefix = folder.path("recorded-login")
        let replay = try Subprocess.run(["replay", folder.path("login.rec.jsonl"), "--write-fixture", prefix], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
        let flags = try String(contentsOfFile: prefix + ".flags", encoding: .utf8)
        #expect(flags == "--directory \(prefix).directory.json\n")
        let fixture = try Data(contentsOf: URL(fileURLWithPath: prefix + ".jsonl"))
        let output = try Subprocess.run(["--clock", "virtual"] + flags.split(whereSeparator: \.isWhitespace).map(String.init),
                                        input: fixture)
        let expected = try String(contentsOfFile: prefix + ".out.jsonl", encoding: .utf8)
        #expect(output.stdout == expected)
        // The recorded events, message for message: the fixture only adds clock.advance notifications.
        let recorded = try Recording.read(run.recording).outputs.map(Self.encoded)
        #expect(output.lines == recorded)
        let directory = try String(contentsOfFile: prefix + ".directory.json", encoding: .utf8)
        #expect(directory.hasPrefix(#"{"replies":[{"ask":{"call":"availability","username":"ada"},"at":"#))
    }
}

/// A seeded generator shared by the HTTP server's threads.
final class LockedGenerator: @unchecked Sendable {
    private let lock = NSLock()
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    func milliseconds(upTo bound: Int64) -> Int {
        lock.withLock { Int(generator.next(in: 0...bound)) }
    }
}

extension RecordingTests {
    /// Every malformed input of the bad-input corpus (on the virtual clock) is recorded, read
    /// back and replayed to the same answers: lines that are not JSON, not UTF-8, over the limit,
    /// batches, extreme numbers.
    @Test func theBadInputCorpusRecordsAndReplaysToItsAnswers() throws {
        let folder = Subprocess.packageRoot.appendingPathComponent("Tests/SignupRPCTests/BadInput")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(names.count > 100)
        var replayed = 0
        for name in names {
            let stem = folder.appendingPathComponent(String(name.dropLast(".jsonl".count))).path
            let flags = (try? String(contentsOfFile: stem + ".flags", encoding: .utf8))?.split(whereSeparator: \.isWhitespace).map(String.init) ?? []
            guard !flags.contains("real") else { continue }
            let input = try Data(contentsOf: folder.appendingPathComponent(name))
            let run = try FixtureRun(input: Array(input), flags: flags, recording: true)
            let recording = try Recording.read(run.recording)
            let outcome = try Replayer(recording: recording).run()
            #expect(outcome.divergence == nil, "\(name): \(ReplayCommand.report(of: outcome, recording: recording, path: name))")
            #expect(outcome.replayed.count == run.output.count, "\(name)")
            replayed += 1
        }
        #expect(replayed == names.count - 2)
    }
}

extension RecordingTests {
    /// Secret values in `form.open`'s `values` and in a full `form.edit` line (not the plain shape)
    /// are recorded as placeholders too, and the replay still matches.
    @Test func secretsOpenedWithOrEditedInAnyShapeAreNotRecorded() throws {
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"s","values":{"username":"ada","password":"Opened-1815","repeatedPassword":"Opened-1815"}}}"#,
            #"{"params":{"value":"Edited-1816","field":"password","form":"s","at":10},"method":"form.edit","jsonrpc":"2.0"}"#,
            #"[{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"repeatedPassword","value":"Edited-1816","at":20}}]"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"s","at":2000}}"#,
        ].joined(separator: "\n") + "\n"
        let run = try FixtureRun(input: Array(input.utf8), flags: [], recording: true)
        let text = String(decoding: run.recording, as: UTF8.self)
        #expect(!text.contains("Opened-1815") && !text.contains("Edited-1816"))
        #expect(run.output.contains { String(decoding: $0, as: UTF8.self).contains(#""state":"succeeded""#) })
        let recording = try Recording.read(run.recording)
        #expect(try Replayer(recording: recording).run().divergence == nil)
    }
}

extension RecordingTests {
    /// A form id closed and opened again as another kind: its secrets are taken as the new kind
    /// takes them (here normalised, so a full-width repeat still matches), and the replay matches.
    @Test func aFormIDReopenedAsAnotherKindIsJudgedByItsNewRules() throws {
        let edit = { (field: String, value: String, at: Int) in
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"x","field":"\#(field)","value":"\#(value)","at":\#(at)}}"#
        }
        let input = [
            #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"x","at":0}}"#,
            edit("repeatedPassword", "abcdefgh", 10),
            #"{"jsonrpc":"2.0","method":"form.close","params":{"form":"x","at":20}}"#,
            #"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"signup-github","form":"x","at":30}}"#,
            edit("password", "abcdefg1", 40), edit("repeatedPassword", "ａｂｃｄｅｆｇ１", 50),
        ].joined(separator: "\n") + "\n"
        let run = try FixtureRun(input: Array(input.utf8), flags: [], recording: true)
        #expect(run.output.contains { String(decoding: $0, as: UTF8.self).contains("repeatedPassword.matches") })
        let recording = try Recording.read(run.recording)
        let outcome = try Replayer(recording: recording).run()
        #expect(outcome.divergence == nil, "\(ReplayCommand.report(of: outcome, recording: recording, path: "reopened"))")
        #expect(outcome.replayed.count == run.output.count)
    }
}

extension RecordingTests {
    /// A virtual session long enough to be handed to the recording's thread in many batches, with
    /// forms opened, closed and reopened as other kinds in between, and passwords all along:
    /// recorded to a file by the process twice, it is the same file byte for byte, and the same
    /// as the recording made in process, batch by batch on the caller's thread.
    @Test func aLongVirtualRecordingIsTheSameEveryRunAndInProcess() throws {
        var lines: [String] = []
        let kinds = ["signup", "signup-github", "login"]
        for round in 0..<4 {
            for form in 0..<40 {
                lines.append(#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"\#(kinds[(form + round) % 3])","form":"f\#(form)"}}"#)
            }
            for step in 0..<6_000 {
                let field = ["username", "password", "repeatedPassword"][step % 3]
                let keystroke = step / 3
                let value = field == "username"
                    ? ["al", "alice", "b\"ob"][keystroke % 3] : ["Pw-\(keystroke % 7)", "ｓｅｃｒｅｔ", "p\"w"][keystroke % 3]
                let id = step % 11 == 0 ? #""id":\#(step),"# : ""
                lines.append(#"{"jsonrpc":"2.0",\#(id)"method":"form.edit","params":{"form":"f\#(step % 40)","field":"\#(field)","value":"\#(value)"}}"#)
            }
            for form in 0..<40 { lines.append(#"{"jsonrpc":"2.0","method":"form.close","params":{"form":"f\#(form)"}}"#) }
        }
        let input = lines.joined(separator: "\n") + "\n"
        let folder = try TemporaryDirectory()
        var files: [Data] = []
        for run in 0..<2 {
            let path = folder.path("run\(run).jsonl")
            let output = try Subprocess.run(["--clock", "virtual", "--record", path], input: input)
            #expect(output.status == 0, "\(output.stderr)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let inProcess = try FixtureRun(input: Array(input.utf8), flags: [], recording: true)
        #expect(files[0].count > 2 << 20, "long enough for several batches")
        #expect(files[0] == files[1])
        #expect(Array(files[0]) == inProcess.recording)
        let text = String(decoding: files[0], as: UTF8.self)
        #expect(text.contains("alice") && !text.contains("Pw-") && !text.contains("ｓｅｃｒｅｔ"))
    }
}

extension RecordingTests {
    /// In LSP's framing, on the virtual clock, the process takes each message out as its writer
    /// wrote it, before framing: the recording is the in-process one byte for byte, its messages
    /// unframed, and holds no password.
    @Test func aRecordingOfLSPFramedInputHoldsTheMessagesUnframed() throws {
        let messages = [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"a"}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"username","value":"ada","at":5}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":"Lovelace-1815","at":9}}"#,
            #"[{"jsonrpc":"2.0","id":2,"method":"form.get","params":{"form":"a"}},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"repeatedPassword","value":"Lovelace-1815","at":2000}}"#,
        ]
        let input = messages.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
        let folder = try TemporaryDirectory()
        let path = folder.path("lsp.jsonl")
        let output = try Subprocess.run(["--clock", "virtual", "--record", path], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Content-Length: "))
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path))
        let inProcess = try FixtureRun(input: Array(input.utf8), flags: [], recording: true)
        #expect(Array(recorded) == inProcess.recording)
        let text = String(decoding: recorded, as: UTF8.self)
        #expect(!text.contains("Lovelace") && !text.contains("Content-Length"))
        #expect(text.contains(#""out":{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"repeatedPassword","#))
    }
}
