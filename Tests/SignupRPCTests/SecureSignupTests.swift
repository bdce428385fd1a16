import Foundation
import Testing
@testable import SignupBackends
@testable import SignupCore
import SignupTestSupport
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The built-in `signup-secure` kind end to end (issue 38 §6), on the real clock against a
/// Pwned Passwords range service of our own on loopback: a person's password typed until it
/// passes every rule and the breach check, then a sign-up; nothing secret in any output.
@Suite struct SecureSignupTests {
    static let breached = "sunflower meadow at noon"
    static let good = "mauve kettle drums at dawn"

    static func range(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        let hash = SHA1.upperHexDigest(breached)
        if request.path == "/range/" + hash.prefix(5) { return .respond(status: 200, body: "\(hash.dropFirst(5)):42\r\n") }
        return .respond(status: 200, body: "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF:0\r\n")
    }

    @Test func aPasswordTypedUntilItPassesThenASignUpAndNoSecretAnywhere() throws {
        let server = try LoopbackHTTPServer(Self.range)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl"), trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess(
            ["--clock", "real", "--debounce-ms", "0", "--store", folder.path("users.db"), "--record", recording, "--trace", trace,
             "--log-level", "debug"],
            environment: ["SIGNUP_PWNED_PASSWORDS_URL": server.url("")])
        func edit(_ field: String, _ value: String) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":""# + field + #"","value":""# + value + #""}}"#
        }
        var lines: [String] = []
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"signup-secure","form":"s"}}"#,
                    edit("username", "Ｂｅａ"), edit("email", "bea@example.com")])
        lines += child.readLines { $0.contains(#""field":"email","state":"ok""#) }
        child.send([edit("password", "bea")])
        lines += child.readLines { $0.contains(#""field":"password","state":"failed""#) }
        child.send([edit("password", Self.breached)])
        lines += child.readLines { $0.contains(#""code":"password.breached""#) }
        child.send([edit("password", Self.good), edit("repeatedPassword", Self.good)])
        lines += child.readLines { $0.contains(#""field":"repeatedPassword","state":"ok""#) }
        lines += child.readLines { $0.contains(#""enabled":true"#) }
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"s"}}"#])
        lines += child.readLines { $0.contains(#""state":"succeeded""#) }
        child.closeInput()
        lines += child.readToEnd().split(separator: "\n").map(String.init)
        #expect(child.wait(atMost: 30) == 0)
        let shown = lines.filter { $0.contains(#""field":"password""#) && !$0.contains(#""state":"empty""#) }.compactMap { line -> String? in
            guard let state = line.range(of: #""state":""#), let end = line.range(of: #","message""#) else { return nil }
            return String(line[state.lowerBound..<end.lowerBound])
        }
        #expect(shown == [
            #""state":"failed","code":"password.tooShort","params":{"min":15,"unmet":["password.tooShort","password.common","password.likeUsername","password.likeEmail"]}"#,
            #""state":"validating","code":"password.checkingBreaches","params":{}"#,
            #""state":"failed","code":"password.breached","params":{"count":42}"#,
            #""state":"validating","code":"password.checkingBreaches","params":{}"#,
            #""state":"ok","code":"password.acceptable","params":{}"#,
        ])
        #expect(lines.contains { $0.contains(#""state":"succeeded","account":{"username":"bea"}"#) })
        // Only prefixes left the process.
        let hashes = [Self.breached, Self.good].map(SHA1.upperHexDigest)
        #expect(server.requests.allSatisfy { $0.path.count == "/range/".count + 5 })
        let secrets = [Self.breached, Self.good, "sunflower", "kettle"] + hashes + hashes.map { String($0.dropFirst(5)) }
        for (name, bytes) in [("stdout", Data(lines.joined(separator: "\n").utf8)), ("stderr", Data(child.errorOutput().utf8)),
                              ("trace", try Data(contentsOf: URL(fileURLWithPath: trace))),
                              ("recording", try Data(contentsOf: URL(fileURLWithPath: recording))),
                              ("store", try Data(contentsOf: URL(fileURLWithPath: folder.path("users.db"))))] {
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)") }
        }
    }

    @Test func aMissingListRefusesEveryPasswordInWordsForAPersonAndTellsTheOperator() throws {
        let child = try InteractiveProcess(["--clock", "virtual"], environment: ["SIGNUP_PASSWORD_LIST": "/nonexistent/common.txt"])
        child.send([#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"signup-secure","form":"s","at":0}}"#,
                    #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"password","value":"mauve kettle drums at dawn","at":10}}"#])
        let lines = child.readLines { $0.contains(#""field":"password","state":"failed""#) }
        child.closeInput()
        _ = child.readToEnd()
        #expect(child.wait(atMost: 30) == 0)
        let unmet = #"["password.common"]"#
        #expect(lines.last == #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"s","field":"password","state":"failed","code":"rule.unavailable","params":{"rule":"password.common","unmet":\#(unmet)},"message":"This can't be checked right now; please try again later","version":1,"at":10}}"#)
        // What to do about it is the operator's, on stderr, once, before any message.
        let told = "signup-rpc: warning: form kind signup-secure, field password: rule password.common fails every value (rule.unavailable): "
            + "the common-password list /nonexistent/common.txt ($SIGNUP_PASSWORD_LIST) cannot be read; unset it to use the shipped list"
        #expect(child.errorOutput(machineNotes: true).components(separatedBy: "\n").filter { $0 == told }.count == 1)
        #expect(!lines.joined().contains("SIGNUP_PASSWORD_LIST"))
    }
}
