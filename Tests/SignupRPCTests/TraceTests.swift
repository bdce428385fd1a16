import Foundation
import SignupTestSupport
import Testing

/// `--trace FILE` and `--log-level debug`: every message in and out, in order, with secrets hidden.
@Suite struct TraceTests {
    static let session = [
        #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"f","values":{"username":"alice","password":"Sup3rSecret!","repeatedPassword":"Sup3rSecret!"}}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"password","value":"Other-Secret9"}}"#,
        "not json",
        #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"kind":"login","form":"l","values":{"username":"alice"}}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"repeatedPassword","value":"Other-Secret9","at":300}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"f","at":600}}"#,
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"l","field":"password","value":"Other-Secret9","at":2000}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"form.submit","params":{"form":"l","at":2000}}"#,
    ]

    /// The records of a trace: direction and what it holds, as JSON text.
    private func records(_ text: String) throws -> [(dir: String, body: String)] {
        try text.split(separator: "\n").map { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((record["time"] as? String)?.hasSuffix("Z") == true)
            let dir = try #require(record["dir"] as? String)
            // The message's own text: the record's last member, written as it was traced.
            let body = line.range(of: #","message":"#).map { String(line[$0.upperBound...].dropLast()) }
                ?? (record["text"] as? String).map { "text: " + $0 } ?? "other"
            return (dir, body)
        }
    }

    @Test func everyMessageInAndOutIsTracedInOrderWithSecretsHidden() throws {
        let folder = try TemporaryDirectory()
        let trace = folder.path("trace.jsonl")
        let output = try Subprocess.run(["--clock", "virtual", "--trace", trace], input: Self.session.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        let traced = try records(try String(contentsOfFile: trace, encoding: .utf8))
        let hidden = { (line: String) in
            line.replacingOccurrences(of: "Sup3rSecret!", with: "[secret]").replacingOccurrences(of: "Other-Secret9", with: "[secret]")
        }
        #expect(traced.filter { $0.dir == "in" }.map(\.body) == Self.session.map { $0 == "not json" ? "text: nxx xxxx" : hidden($0) })
        // Each answer is traced after the request it answers, though records in are written in runs.
        let position = { (dir: String, id: Int) in traced.firstIndex { $0.dir == dir && $0.body.contains(#""id":\#(id),"#) } }
        #expect((1...4).filter { id in (position("in", id) ?? .max) >= (position("out", id) ?? -1) } == [])
        let token = try #require(output.stdout.range(of: #""token":""#).map { output.stdout[$0.upperBound...].prefix(64) })
        #expect(traced.filter { $0.dir == "out" }.map(\.body) == output.lines.map { $0.replacingOccurrences(of: String(token), with: "[secret]") })
        // Byte for byte: no password and no token anywhere in the trace.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        for secret in ["Sup3rSecret!", "Other-Secret9", String(token)] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the trace")
        }
    }

    /// On the virtual clock field changes are encoded by the writer, and traced unsearched when
    /// their type knows every member's name; one whose result a backend worded with a member
    /// named for a secret is still searched, and that member hidden.
    @Test func aBackendsResultNamingASecretIsHiddenWhereOtherFieldChangesAreTracedAsWritten() throws {
        let folder = try TemporaryDirectory()
        let directory = folder.path("directory.json")
        try Data(#"""
            {"checks": {"inviteCode": {"answers": {"OLDX-2024": {"code": "invite.expired", "message": "Expired; ask {user}",
             "params": {"user": "bea", "resetToken": "rt-5150", "secret": true}}}}}}
            """#.utf8).write(to: URL(fileURLWithPath: directory))
        let trace = folder.path("trace.jsonl")
        let edit = { (field: String, value: String, at: Int) in
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"ann","field":"\#(field)","value":"\#(value)","at":\#(at)}}"#
        }
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"invite-signup","form":"ann","at":0}}"#,
            edit("inviteCode", "OLDX-2024", 100), edit("username", "ann", 200), edit("inviteCode", "GOOD-0001", 1500),
        ]
        let output = try Subprocess.run([
            "--clock", "virtual", "--forms", Subprocess.packageRoot.appendingPathComponent("Examples/forms").path,
            "--directory", directory, "--trace", trace,
        ], input: input.joined(separator: "\n") + "\n")
        #expect(output.status == 0)
        let expired = try #require(output.lines.first { $0.contains(#""code":"invite.expired""#) })
        #expect(expired.contains(#""resetToken":"rt-5150""#))
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let outs = try records(text).filter { $0.dir == "out" }.map(\.body)
        #expect(outs == output.lines.map { $0.replacingOccurrences(of: #""resetToken":"rt-5150""#, with: #""resetToken":"[secret]""#) })
        #expect(outs.filter { $0.contains(#""resetToken":"[secret]""#) && $0.contains(#""secret":true"#) }.count == 1)
        #expect(!text.contains("rt-5150"))
    }

    /// An account from an HTTP backend whose token has another name (`accessToken`) is hidden in
    /// the trace as in the recording, while flags such as a description's `"secret":true` stay.
    @Test func membersThatNameASecretAreHiddenWhateverTheirExactName() throws {
        let server = try LoopbackHTTPServer { request in
            switch (request.method, request.path) {
            case ("GET", _): return .respond(status: 404)
            case ("POST", "/signup"):
                return .respond(status: 201, body: #"{"username":"grace","accessToken":"at-9f8e7d","Password_Hash":"ph-1a2b3c"}"#)
            default: return .respond(status: 503)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0", "--trace", trace,
            "--availability-url", server.url("/users/{username}"), "--signup-url", server.url("/signup"),
        ])
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"form.open","params":{"form":"f","values":{"username":"grace","password":"hunter22","repeatedPassword":"hunter22"}}}"#,
        ])
        _ = child.readLines { $0.contains(#""code":"username.available""#) }
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"f"}}"#])
        let succeeded = child.readLines { $0.contains(#""state":"succeeded""#) }.last!
        #expect(succeeded.contains(#""account":{"Password_Hash":"ph-1a2b3c","accessToken":"at-9f8e7d","username":"grace"}"#))
        child.closeInput()
        #expect(child.wait() == 0)
        let text = try String(contentsOfFile: trace, encoding: .utf8)
        let traced = try records(text)
        #expect(traced.contains { $0.body.contains(#""account":{"Password_Hash":"[secret]","accessToken":"[secret]","username":"grace"}"#) })
        #expect(traced.contains { $0.dir == "out" && $0.body.contains(#""secret":true"#) })
        for secret in ["at-9f8e7d", "ph-1a2b3c", "hunter22"] {
            #expect(!text.contains(secret), "\(secret) is in the trace")
        }
    }

    @Test func debugLoggingTracesOnStderr() throws {
        let output = try Subprocess.run(["--clock", "virtual", "--log-level", "debug"], input: Self.session[0] + "\n")
        let traceLines = output.stderr.split(separator: "\n").filter { $0.hasPrefix(#"{"time":"#) }
        #expect(traceLines.count == 1 + output.lines.count)
        #expect(!output.stderr.contains("Sup3rSecret!"))
    }

    @Test func aTraceFileThatCannotBeCreatedIsExit73() throws {
        let output = try Subprocess.run(["--trace", "/nonexistent-folder/trace.jsonl"], input: "")
        #expect(output.status == 73)
        #expect(output.stderr.hasPrefix("signup-rpc: cannot create the trace file '/nonexistent-folder/trace.jsonl'"))
    }

    @Test(arguments: [
        ("--trace", "trace: writing the file failed (No space left on device); it stops here"),
        ("--record", "recording: writing the file failed (No space left on device); it stops here, without its end"),
    ])
    func aFileThatCannotBeWrittenIsReportedOnceAndTheSessionGoesOn(option: String, warning: String) throws {
        // Far more than the recording's buffer, so its file is written during the session.
        let input = (0..<5000).map { index in
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f\#(index % 20)","field":"username","value":"name\#(index)","at":\#(index)}}"#
        }.joined(separator: "\n") + "\n"
        let plain = try Subprocess.run(["--clock", "virtual"], input: input)
        let written = try Subprocess.run(["--clock", "virtual", option, "/dev/full"], input: input)
        #expect(written.status == 0)
        #expect(written.stdout == plain.stdout)
        let reports = written.stderr.split(separator: "\n").map(String.init).filter { $0.contains("writing the file") }
        #expect(reports == ["signup-rpc: warning: \(warning)"])
    }
}
