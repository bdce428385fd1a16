import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Breached passwords, live (issue 38 §2): a password checked while typing against a Pwned
/// Passwords range service (one of our own on loopback, speaking its documented format) with
/// k-anonymity. Only the hash's first five hex digits leave the process; neither the password,
/// nor its full hash, nor the answer's other suffixes reach any output, trace, log or recording.
@Suite struct BreachedPasswordTests {
    /// A password the service knows from breaches, one whose service fails, and a good one.
    static let breached = "Tr0ub4dor&3-sesame"
    static let failing = "Failing-pass-4242"
    static let good = "correct horse battery"
    static var breachedHash: String { SHA1.upperHexDigest(breached) }
    static let otherSuffix = "0018A45C4D1DEF81644B54AB7F969B88D65"

    static func range(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        guard request.path.hasPrefix("/range/"), request.headers["add-padding"] == "true" else { return .respond(status: 400) }
        if request.path == "/range/" + breachedHash.prefix(5) {
            // Real answers are upper-case, CRLF-separated, padded with zero counts.
            return .respond(status: 200, body: "\(otherSuffix):1\r\n\(breachedHash.dropFirst(5)):3861493\r\nFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0\r\n")
        }
        if request.path == "/range/" + SHA1.upperHexDigest(failing).prefix(5) { return .respond(status: 503) }
        return .respond(status: 200, body: "\(otherSuffix):2\r\n")
    }

    static func form(_ server: LoopbackHTTPServer) -> String {
        """
        {"kind":"breach","fields":[
          {"name":"username"},
          {"name":"password","secret":true,"rules":[{"minLength":8,"code":"password.tooShort","message":"At least {min}"}],
           "remoteChecks":[{"kind":"breachedPassword","baseUrl":"\(server.url(""))","cacheMs":60000,
             "validating":{"code":"password.checking","message":"Checking..."},
             "passed":{"code":"password.notBreached","message":"Not in any known breach"},
             "rejected":{"code":"password.breached","message":"This password appeared in {count} breaches; choose another"},
             "unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}]}],
         "submit":{"action":"registerAccount","usernameField":"username","passwordField":"password",
           "messages":{"taken":{"code":"t","message":"T"},"refused":{"code":"r","message":"R"},"unavailable":{"code":"u","message":"U"}}}}
        """
    }

    @Test func sha1IsFIPS180() {
        #expect(SHA1.upperHexDigest("password") == "5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8")
        #expect(SHA1.upperHexDigest("") == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
        #expect(SHA1.upperHexDigest(String(repeating: "a", count: 1000)) == "291E9A6C66994949B57BA5E650361E98FC36B1BA")
    }

    @Test func aRangeAnswerIsReadLineByLine() {
        let suffix = String(Self.breachedHash.dropFirst(5))
        let counts = BreachedPasswords.counts(in: Array("\(suffix):3\r\nnot a line\r\n\(Self.otherSuffix.lowercased()):12\nABC:4\n".utf8))
        #expect(counts == [Substring(suffix): 3, Substring(Self.otherSuffix): 12])
    }

    @Test func aBreachedPasswordIsRefusedWithItsCountAndNothingButThePrefixLeaves() throws {
        let server = try LoopbackHTTPServer(Self.range)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("breach.json", Self.form(server))
        let recording = folder.path("session.jsonl"), trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0", "--forms", forms, "--record", recording, "--trace", trace,
            "--log-level", "debug",
        ])
        func edit(_ form: String, _ value: String) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":""# + form + #"","field":"password","value":""# + value + #""}}"#
        }
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"breach","form":"a"}}"#,
                    #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"kind":"breach","form":"b"}}"#, edit("a", Self.breached)])
        lines += child.readLines { $0.contains(#""form":"a","field":"password","state":"failed""#) }
        // The same prefix again, in another form: answered from the kept range, with no request.
        child.send([edit("b", Self.breached)])
        lines += child.readLines { $0.contains(#""form":"b","field":"password","state":"failed""#) }
        child.send([edit("a", Self.good)])
        lines += child.readLines { $0.contains(#""form":"a","field":"password","state":"ok""#) }
        // The service failing: the check fails open, as declared by default.
        child.send([edit("a", Self.failing)])
        lines += child.readLines { $0.contains(#""form":"a","field":"password","state":"ok""#) && $0.contains(#""version":3"#) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        let shown = lines.compactMap { line -> String? in
            guard line.contains("form.fieldChanged"), let params = (try? JSONParser.parse(Array(line.utf8)))?["params"],
                  case .string("password")? = params["field"], params["version"]?.int64 != 0 else { return nil }
            func text(_ key: String) -> String { if case .string(let value)? = params[key] { value } else { "?" } }
            var writer = JSONWriter()
            writer.json(params["params"] ?? .object([]))
            return "\(text("form")) \(text("state")) \(writer.withBytes { String(decoding: $0, as: UTF8.self) }) \(text("message"))"
        }
        #expect(shown == [
            "a validating {} Checking...",
            #"a failed {"count":3861493} This password appeared in 3861493 breaches; choose another"#,
            "b validating {} Checking...",
            #"b failed {"count":3861493} This password appeared in 3861493 breaches; choose another"#,
            "a validating {} Checking...", "a ok {} Not in any known breach",
            // The range API is down and the check fails open: accepted, and said to be unchecked.
            "a validating {} Checking...", "a ok {} Accepted without this check: the service could not be reached",
        ])
        // Only prefixes were asked, each once, with padding.
        #expect(server.requests.map(\.path) == [Self.breached, Self.good, Self.failing].map { "/range/" + SHA1.upperHexDigest($0).prefix(5) })
        let secrets = [Self.breached, Self.good, Self.failing, Self.otherSuffix] + [Self.breached, Self.good, Self.failing].flatMap {
            [SHA1.upperHexDigest($0), String(SHA1.upperHexDigest($0).dropFirst(5))]
        }
        for (name, bytes) in [("stdout", Data(lines.joined(separator: "\n").utf8)), ("stderr", Data(child.errorOutput().utf8)),
                              ("trace", try Data(contentsOf: URL(fileURLWithPath: trace))),
                              ("recording", try Data(contentsOf: URL(fileURLWithPath: recording)))] {
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)") }
        }
        // The recording replays, its answers carrying the count alone.
        let recorded = try Recording.read(Array(try Data(contentsOf: URL(fileURLWithPath: recording))))
        let outcome = try Replayer(recording: recorded).run()
        #expect(outcome.divergence == nil, "\(ReplayCommand.report(of: outcome, recording: recorded, path: recording))")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""verdict":"rejected","params":{"count":3861493}"#))
    }

    /// Fail-closed, a threshold, and a superseded check: its late answer is never shown.
    @Test func failingClosedAThresholdAndASupersededCheckWhoseAnswerNeverShows() throws {
        let slow = "Slow-answer-pass-9", rare = "Seen-once-pass-77"
        let server = try LoopbackHTTPServer { request in
            if request.path == "/range/" + SHA1.upperHexDigest(slow).prefix(5) {
                return .respond(status: 200, body: "\(SHA1.upperHexDigest(slow).dropFirst(5)):9\r\n", after: 1500)
            }
            if request.path == "/range/" + SHA1.upperHexDigest(rare).prefix(5) {
                return .respond(status: 200, body: "\(SHA1.upperHexDigest(rare).dropFirst(5)):1\r\n")
            }
            return Self.range(request)
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let closed = Self.form(server).replacingOccurrences(of: #""cacheMs":60000,"#, with: #""cacheMs":60000,"whenUnavailable":"unavailable","threshold":2,"#)
        let forms = try folder.forms("breach.json", closed)
        let child = try InteractiveProcess(["--clock", "real", "--debounce-ms", "0", "--forms", forms])
        func edit(_ value: String) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":""# + value + #""}}"#
        }
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"breach","form":"a"}}"#, edit(slow)])
        lines += child.readLines { $0.contains(#""state":"validating""#) }
        #expect(server.waitForRequest())
        // The slow answer is still on its way when the next value replaces it.
        child.send([edit(rare)])
        lines += child.readLines { $0.contains(#""state":"ok""#) }
        child.send([edit(Self.failing)])
        lines += child.readLines { $0.contains(#""code":"backend.unavailable""#) }
        // The superseded request was abandoned on the wire (its client went away before the
        // answer), and nothing came of it.
        #expect(server.waitUntilFinished("/range/" + SHA1.upperHexDigest(slow).prefix(5)))
        #expect(server.aborted == ["/range/" + SHA1.upperHexDigest(slow).prefix(5)])
        child.send([#"{"jsonrpc":"2.0","id":9,"method":"form.snapshot","params":{"form":"a"}}"#])
        lines += child.readLines { $0.contains(#""id":9"#) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        let shown = lines.filter { $0.contains("form.fieldChanged") && $0.contains(#""field":"password""#) && !$0.contains(#""version":0"#) }
            .compactMap { line -> String? in
                guard let state = line.range(of: #""state":""#), let end = line.range(of: #","message""#) else { return nil }
                return String(line[state.lowerBound..<end.lowerBound])
            }
        #expect(shown == [
            #""state":"validating","code":"password.checking","params":{}"#,
            // Seen once, under the threshold of 2: it passes.
            #""state":"ok","code":"password.notBreached","params":{}"#,
            #""state":"validating","code":"password.checking","params":{}"#,
            // The service failing, and the check declared to fail closed.
            #""state":"failed","code":"backend.unavailable","params":{}"#,
        ])
        #expect(!lines.contains { $0.contains(#""count":9"#) })
        #expect(lines.last { $0.contains(#""id":9"#) }?.contains(#""field":"password","state":"failed","code":"backend.unavailable""#) == true)
    }
}
