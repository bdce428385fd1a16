import Foundation
import SignupTestSupport
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Issue 36 §1: no secret in a trace or a recording, whatever shape the message carrying it has
/// (escaped names, refused requests, text that is not JSON, a secret asked about as a name), for
/// every form kind; and the recording still replays. Secrets are looked for byte for byte: as
/// UTF-8, as UTF-16, inside every decoded string (so `\u` escapes count) and inside every base64
/// payload.
@Suite struct SecretShapesTests {
    static let secret = "S3cret-pw"

    /// A custom kind whose name field, asked about by availability and sent as the account's
    /// name, is secret.
    static let secretNameForm = """
        {"kind":"secret-name","fields":[
          {"name":"code","secret":true,"rules":[{"minLength":3,"code":"code.short","message":"Short"}],
           "remoteCheck":{"kind":"usernameAvailability","validating":{"code":"c.checking","message":"Checking"},
             "passed":{"code":"c.free","message":"Free"},"rejected":{"code":"c.taken","message":"Taken"},
             "unavailable":{"code":"c.down","message":"Down"}}},
          {"name":"pin","secret":true}],
         "submit":{"action":"registerAccount","usernameField":"code","passwordField":"pin",
           "messages":{"taken":{"code":"t","message":"Taken"},"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
        """

    /// The secret in each shape that once slipped through, for a form `form` with secret field `field`.
    static func shapes(form: String, field: String) -> [[UInt8]] {
        let escapedField = String(field.unicodeScalars.first!) + field.unicodeScalars.dropFirst().map { "\\u" + String(format: "%04x", $0.value) }.joined()
        let lines = [
            #"{"jsonrpc":"2.0","id":2,"method":"form.edit","params":{"form":"\#(form)","field":"\#(escapedField)","value":"\#(secret)","at":1}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"S3cr\u0065t-pw","at":2}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"form.edit","params":{"form":"\#(form)","field":"username","field":"\#(field)","value":"\#(secret)"}}"#,
            #"{"jsonrpc":"2.0","id":5,"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":["\#(secret)"]}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":{"v":"\#(secret)"}}}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"form.edit","params":{"form":"\#(form)","field":"x","value":"y","extra":{"password":"\#(secret)"}}}"#,
            #"{"jsonrpc":"2.0","id":8,"method":"form.edt","params":{"form":"\#(form)","field":"\#(field)","value":"\#(secret)"}}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"form.edit","params":{"form":"\#(form)","field":"Password","value":"\#(secret)"}}"#,
            #"{"jsonrpc":"2.0","id":10,"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":\#(secret)}}"#,
        ].map { Array($0.utf8) + [0x0A] }
        let notUTF8 = Array(#"{"jsonrpc":"2.0","id":11,"method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(secret)"#.utf8)
            + [0xFF] + Array(#"tail"}}"#.utf8) + [0x0A]
        return lines + [notUTF8]
    }

    /// The input for one kind: its form opened, every shape, and a line cut off by the end of input.
    static func session(kind: String, field: String) -> Data {
        var input = Array(#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"\#(kind)","form":"f"}}"#.utf8) + [0x0A]
        for shape in shapes(form: "f", field: field) { input += shape }
        input += Array(#"{"jsonrpc":"2.0","id":12,"method":"form.edit","params":{"form":"f","field":"\#(field)","value":"\#(secret)"#.utf8)
        return Data(input)
    }

    /// Every way the secret could be written: as UTF-8 or UTF-16 anywhere, or inside a decoded
    /// string or a base64 payload of any JSON line.
    static func leaks(of secret: String, in bytes: Data) -> [String] {
        var found: [String] = []
        for (name, encoded) in [("UTF-8", Data(secret.utf8)), ("UTF-16LE", secret.data(using: .utf16LittleEndian)!),
                                ("UTF-16BE", secret.data(using: .utf16BigEndian)!)] where bytes.range(of: encoded) != nil {
            found.append(name)
        }
        for line in bytes.split(separator: 0x0A) {
            guard let json = try? JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed]) else { continue }
            for string in strings(in: json) {
                if string.contains(secret) { found.append("decoded: \(string)") }
                if let decoded = Data(base64Encoded: string), decoded.range(of: Data(secret.utf8)) != nil { found.append("base64: \(string)") }
            }
        }
        return found
    }

    private static func strings(in json: Any) -> [String] {
        switch json {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap(strings)
        case let object as [String: Any]: return object.keys.map { $0 } + object.values.flatMap(strings)
        default: return []
        }
    }

    @Test(arguments: [("signup", "password"), ("signup-github", "password"), ("login", "password"), ("secret-name", "pin")])
    func noShapeOfASecretReachesTheTraceOrTheRecording(kind: String, field: String) throws {
        let folder = try TemporaryDirectory()
        let (trace, recording, forms) = (folder.path("trace.jsonl"), folder.path("session.rec.jsonl"), folder.path("forms"))
        try FileManager.default.createDirectory(atPath: forms, withIntermediateDirectories: false)
        try Data(Self.secretNameForm.utf8).write(to: URL(fileURLWithPath: forms + "/secret-name.json"))
        let output = try Subprocess.run(
            ["--clock", "virtual", "--forms", forms, "--trace", trace, "--record", recording],
            input: Self.session(kind: kind, field: field))
        #expect(output.status == 0)
        let answered = output.lines.filter { !$0.hasPrefix(#"{"jsonrpc":"2.0","method""#) }
        #expect(answered.count == 12, "every line is answered once: \(output.stdout)")
        for path in [trace, recording] {
            let leaks = Self.leaks(of: Self.secret, in: try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(leaks.isEmpty, "\(path): \(leaks)")
        }
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    /// A secret that is also the name the forms ask the backend about: the question, the answer
    /// and the success event carry its placeholder, and the recording replays.
    @Test func aSecretAskedAboutAsANameIsHiddenInQuestionsAnswersAndEvents() throws {
        let folder = try TemporaryDirectory()
        let (trace, recording, forms) = (folder.path("trace.jsonl"), folder.path("session.rec.jsonl"), folder.path("forms"))
        try FileManager.default.createDirectory(atPath: forms, withIntermediateDirectories: false)
        try Data(Self.secretNameForm.utf8).write(to: URL(fileURLWithPath: forms + "/secret-name.json"))
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"secret-name","form":"f"}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"code","value":"\#(Self.secret)","at":10}}"#,
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"pin","value":"Other-Pin-42","at":20}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"f","at":2000}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"form.snapshot","params":{"form":"f","at":4000}}"#,
        ].joined(separator: "\n") + "\n"
        let output = try Subprocess.run(["--clock", "virtual", "--forms", forms, "--trace", trace, "--record", recording], input: input)
        #expect(output.stdout.contains(#""state":"succeeded""#), "\(output.stdout)")
        let recorded = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(recorded.contains(#""call":"availability""#) && recorded.contains(#""call":"register""#))
        for path in [trace, recording] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(Self.leaks(of: Self.secret, in: bytes).isEmpty, "\(path)")
            #expect(Self.leaks(of: "Other-Pin-42", in: bytes).isEmpty, "\(path)")
        }
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}

/// Text that is not JSON is written without its strings' contents, and still fails where and
/// as the original failed, so that a replay answers it alike.
@Suite struct MaskedTextTests {
    @Test(arguments: [
        (#"{"field":"password","value":"S3cret-pw"#, #"{"xxxxx":"xxxxxxxx","xxxxx":"x0xxxx-xx"#),
        (#"{"value":S3cret}"#, #"{"xxxxx":S0xxxx}"#),
        (#"{"value":"S3\u0065cret" x}"#, #"{"xxxxx":"x0\u0078xxxx" x}"#),
        (#"{"value":"\ud800S3cret"}"#, #"{"xxxxx":"\ud800x0xxxx"}"#),
        (#"{"value":1.5eS3}"#, #"{"xxxxx":1.5ex0}"#),
        ("not json", "nxx xxxx"),
    ])
    func stringsAreMaskedAndTheErrorStays(line: String, masked: String) throws {
        let result = SecretRedaction.maskedText(Array(line.utf8), maxDepth: 64)
        #expect(String(decoding: result, as: UTF8.self) == masked)
        let original = #expect(throws: JSONParseError.self) { try JSONParser.parse(Array(line.utf8)) }
        let after = #expect(throws: JSONParseError.self) { try JSONParser.parse(result) }
        #expect(original?.offset == after?.offset && original?.description == after?.description)
    }

    @Test func bytesThatAreNotUTF8StayInvalidAndTellNothing() {
        let line = Array(#"{"value":"S3cr"#.utf8) + [0xE9] + Array("t-pw\"}".utf8)
        let result = SecretRedaction.maskedText(line, maxDepth: 64)
        #expect(result == Array(#"{"xxxxx":"x0xx"#.utf8) + [0xFF] + Array("x-xx\"}".utf8))
    }
}
