import Foundation
import Testing
import SignupCore
import SignupTestSupport
@testable import SignupTools
@testable import SignupServer
@testable import SignupFormFiles
@testable import SignupProtocol

/// A backend that echoes a secret it was sent (a welcome quoting the password) has the secret
/// replaced in its answer and in the messages out that pass the answer on, and the recording
/// still replays; the trace masks it too.
@Suite struct EchoedSecretsTests {
    private static func edit(_ field: String, _ value: String) -> String {
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"\#(field)","value":"\#(value)"}}"#
    }

    @Test func aPasswordEchoedByTheSignUpAPIIsNeitherRecordedNorTracedAndTheRecordingReplays() throws {
        let server = try LoopbackHTTPServer { request in
            switch (request.method, request.path) {
            case ("POST", "/signup"):
                return .respond(status: 201, body: #"{"username":"ada","id":7,"note":"welcome ada, your password Lovelace-1815 is set"}"#)
            default: return .respond(status: 404)
            }
        }
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let trace = folder.path("trace.jsonl")
        let child = try InteractiveProcess([
            "--clock", "real", "--debounce-ms", "0", "--record", recording, "--trace", trace,
            "--availability-url", server.url("/users/{username}"), "--signup-url", server.url("/signup"),
        ])
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"signup","form":"s"}}"#,
            Self.edit("username", "ada"),
        ])
        var lines = child.readLines { $0.contains(#""field":"username","state":"ok""#) }
        child.send([Self.edit("password", "Lovelace-1815"), Self.edit("repeatedPassword", "Lovelace-1815")])
        lines += child.readLines { $0.contains(#""field":"repeatedPassword","state":"ok""#) }
        child.send([#"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"s"}}"#])
        lines += child.readLines { $0.contains(#""state":"succeeded""#) }
        child.closeInput()
        #expect(child.wait(atMost: 30) == 0)
        // The client is told what its backend said, its own password included.
        #expect(lines.last?.contains("your password Lovelace-1815 is set") == true)

        let bytes = try #require(FileManager.default.contents(atPath: recording))
        #expect(bytes.range(of: Data("Lovelace-1815".utf8)) == nil, "the recording holds the echoed password")
        let text = String(decoding: bytes, as: UTF8.self)
        let echoes = text.split(separator: "\n").filter { $0.contains("welcome ada, your password ") }
        // The answer and the message out that passes it on, each with the password's placeholder.
        #expect(echoes.count == 2)
        #expect(echoes.first?.contains(#""answer":"#) == true)
        #expect(echoes.last?.contains(#""out":"#) == true)
        let outcome = try Replayer(recording: try Recording.read(Array(bytes))).run()
        #expect(outcome.divergence == nil)

        // The trace masks it where it stands in the message out about the form.
        let traced = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(!traced.contains("Lovelace-1815"), "the trace holds the echoed password")
        let tracedEchoes = traced.split(separator: "\n").filter { $0.contains("welcome ada, your password ") }
        #expect(tracedEchoes.count == 1)
        #expect(tracedEchoes.first?.contains(#"your password [secret] is set"#) == true)
        #expect(traced.contains(#""message":"Username available""#))
    }
}

/// The trace masks a submitted form's secret values in messages out about that form, on that
/// connection, until the form closes or the connection's session ends.
@Suite struct TracedEchoesTests {
    private func traced(forms: [FormDefinition] = [.signup], _ steps: (Tracer) throws -> Void) throws -> [String] {
        let folder = try TemporaryDirectory()
        let path = folder.path("trace.jsonl")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        let tracer = Tracer(destinations: [fd], forms: forms, maxDepth: 64)
        try steps(tracer)
        tracer.flush()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            // The message alone: the time changes from run to run.
            String(line[line.range(of: #""message":"#)!.upperBound...].dropLast())
        }
    }

    /// The connections the tests trace, by number.
    private let connections = (1...2).map { TracedConnection(number: $0) }

    private func input(_ text: String, _ tracer: Tracer, connection: Int) throws {
        let bytes = Array(text.utf8)
        tracer.traceIn(.message(try JSONParser.parse(bytes), bytes: bytes), connection: connections[connection - 1])
    }

    private func output(_ text: String, _ tracer: Tracer, connection: Int) {
        Array((text + "\n").utf8).withUnsafeBytes { tracer.traceOut($0, connection: connections[connection - 1]) }
    }

    @Test func aSubmittedPasswordIsMaskedWithinMessagesOutAboutItsFormOnly() throws {
        let echo = #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"s","note":"set Lovelace-1815 ok"}}"#
        let masked = #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"s","note":"set [secret] ok"}}"#
        let lines = try traced { tracer in
            try input(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"password","value":"Lovelace-1815"}}"#,
                      tracer, connection: 1)
            output(echo, tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"s"}}"#, tracer, connection: 1)
            output(echo, tracer, connection: 1)
            output(echo, tracer, connection: 2)
            output(echo.replacingOccurrences(of: #""form":"s""#, with: #""form":"t""#), tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","id":2,"method":"form.close","params":{"form":"s"}}"#, tracer, connection: 1)
            output(echo, tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"password","value":"Lovelace-1815"}}"#,
                      tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"s"}}"#, tracer, connection: 1)
            output(echo, tracer, connection: 1)
            tracer.connectionEnded(connections[0])
            output(echo, tracer, connection: 1)
        }
        let edit = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"s","field":"password","value":"[secret]"}}"#
        #expect(lines == [
            edit,
            echo,  // not yet submitted: the client's own text, as the client sent it
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"s"}}"#,
            masked,
            echo,  // another connection's form "s"
            echo.replacingOccurrences(of: #""form":"s""#, with: #""form":"t""#),
            #"{"jsonrpc":"2.0","id":2,"method":"form.close","params":{"form":"s"}}"#,
            echo,
            edit,
            #"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"s"}}"#,
            masked,
            echo,
        ])
    }

    /// api-signup sends every field to its API, so its password is asked about as a name: the
    /// values it held when submitted are hidden as whole strings of any message out on that
    /// connection (an account's name in a snapshot's result) until its session ends, but not the
    /// first letters typed before.
    @Test func aPasswordAskedAboutIsHiddenAsAWholeStringOnceSubmittedAndNotBefore() throws {
        let file = Subprocess.packageRoot.appendingPathComponent("Examples/api/api-signup.json")
        let definition = try FormFile.parse(Array(try Data(contentsOf: file)), file: "api-signup.json")
        let fieldOK = #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"a","field":"email","state":"ok"}}"#
        let snapshot = #"{"jsonrpc":"2.0","id":9,"result":{"submission":{"state":"succeeded","account":{"username":"emailpass1"}}}}"#
        let lines = try traced(forms: [definition]) { tracer in
            for typed in ["e", "em", "ema", "emai", "email"] {
                try input(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":"\#(typed)"}}"#,
                          tracer, connection: 1)
            }
            output(fieldOK, tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":"emailpass1"}}"#,
                      tracer, connection: 1)
            output(snapshot, tracer, connection: 1)
            try input(#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"a"}}"#, tracer, connection: 1)
            output(fieldOK, tracer, connection: 1)
            output(snapshot, tracer, connection: 1)
            output(snapshot, tracer, connection: 2)
            tracer.connectionEnded(connections[0])
            output(snapshot, tracer, connection: 1)
        }
        let edit = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"a","field":"password","value":"[secret]"}}"#
        #expect(lines == [
            edit, edit, edit, edit, edit,
            fieldOK,  // "email" was typed, but never submitted
            edit,
            snapshot,  // not yet submitted
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"a"}}"#,
            fieldOK,
            snapshot.replacingOccurrences(of: "emailpass1", with: "[secret]"),
            snapshot,  // another connection
            snapshot,  // the session has ended
        ])
    }
}
