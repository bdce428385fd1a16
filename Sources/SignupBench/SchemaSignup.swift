import Foundation

/// The schema row of figure 1 (issue 55): the same edits over forms of a kind read from a JSON
/// Schema (a username with a pattern and an availability check, an e-mail address, a password)
/// beside as many over the built-in `signup` kind. Goal: within 1.5× of `signup`.
extension EndToEnd {
    static let schemaSignup = #"""
        {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"Sign up",
         "properties":{
           "username":{"type":"string","minLength":1,"maxLength":32,"pattern":"^[A-Za-z0-9]+$",
             "signupRPC":{"remoteChecks":[{"kind":"usernameAvailability",
               "validating":{"code":"username.checking","message":"Checking availability..."},
               "passed":{"code":"username.available","message":"Username available"},
               "rejected":{"code":"username.taken","message":"Username already taken"},
               "unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}]}},
           "email":{"type":"string","format":"email"},
           "password":{"type":"string","minLength":15,"maxLength":128,"writeOnly":true}},
         "required":["username","email","password"],
         "signupRPC":{"kind":"schema-signup","submit":{"action":"registerAccount","usernameField":"username","passwordField":"password",
           "messages":{"taken":{"code":"username.taken","message":"Username already taken"},
             "refused":{"code":"signup.failed","message":"Sign-up failed"},
             "unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}}}}
        """#

    /// Median seconds through `signup-rpc --clock virtual` for `edits` edits over `forms` forms of
    /// the schema's kind and over as many `signup` forms, their runs alternating, and the input
    /// lines; nil for a build that does not read schemas as forms.
    func schemaThroughput(edits: Int, forms: Int) throws -> (schema: Double, signup: Double, lines: Int)? {
        let formsFolder = folder.appendingPathComponent("schema-forms")
        try FileManager.default.createDirectory(at: formsFolder, withIntermediateDirectories: true)
        try Data(Self.schemaSignup.utf8).write(to: formsFolder.appendingPathComponent("signup.schema.json"))
        defer { try? FileManager.default.removeItem(at: formsFolder) }
        var schema = Workload(), plain = Workload()
        schema.open(forms, kind: "schema-signup")
        schema.edit(edits, forms: forms, fields: ["username", "email", "password"], values: Self.secureValues)
        plain.open(forms)
        plain.edit(edits, forms: forms, fields: Workload.signupFields, values: Self.secureValues)
        let schemaFile = try schema.write(named: "schema-\(edits).jsonl", in: folder)
        let plainFile = try plain.write(named: "signup-schema-\(edits).jsonl", in: folder)
        defer { for path in [schemaFile, plainFile] { try? FileManager.default.removeItem(atPath: path) } }
        let arguments = ["--clock", "virtual", "--forms", formsFolder.path] + rpcOptions
        guard try opens("schema-signup", arguments) else { return nil }
        let timings = try alternatingRuns(of: [
            Command(executable: rpc, arguments: arguments, file: schemaFile), Command(executable: rpc, arguments: arguments, file: plainFile),
        ])
        return (median(timings.seconds[0]), median(timings.seconds[1]), schema.lines.count)
    }

    /// Whether the build under test, run with `arguments`, opens a form of `kind`.
    func opens(_ kind: String, _ arguments: [String]) throws -> Bool {
        let probe = folder.appendingPathComponent("probe-\(kind).jsonl")
        try Data(#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"\#(kind)"}}"#.utf8 + [10]).write(to: probe)
        defer { try? FileManager.default.removeItem(at: probe) }
        let child = try ChildProcess(rpc, arguments, inputFile: probe.path)
        var answer = ""
        while let line = child.readLine() { answer += String(decoding: line, as: UTF8.self) }
        _ = child.wait()
        return answer.contains(#""id":1,"result""#)
    }
}
