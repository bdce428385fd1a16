import Foundation

/// The `signup-secure` row of figure 1: the same edits as the throughput figure, over forms of the
/// kind that runs the NIST password rules, the look-alike username rules and a checklist per
/// keystroke, beside the same count of edits over `signup` forms.
extension EndToEnd {
    /// Usernames (one mixing scripts, one full-width), e-mail addresses and passwords (short,
    /// common, sequential, like the username, good), drawn at random for every field.
    static let secureValues = [
        "ann", "Ａｎｎ", "pаypal", "张伟", "ann@example.com", "bea@例子.广告", "not an address", "password",
        "passwordpassword", "1234567890123456", "ann-2024-ann-2024", "mauve kettle drums at dawn", "correct horse battery staple",
    ]

    /// Median seconds through `signup-rpc --clock virtual` for `edits` edits over `forms`
    /// `signup-secure` forms and over as many `signup` forms, their runs alternating, and the
    /// input lines; nil for a build that does not offer the kind.
    func secureThroughput(edits: Int, forms: Int) throws -> (secure: Double, signup: Double, lines: Int)? {
        // The breach check answers from a scripted directory, never over the network.
        let directory = folder.appendingPathComponent("secure-directory.json")
        try Data(#"{"checks":{"breachedPassword":{"latencyMs":100}}}"#.utf8).write(to: directory)
        var secure = Workload(), plain = Workload()
        secure.open(forms, kind: "signup-secure")
        secure.edit(edits, forms: forms, fields: ["username", "email", "password", "repeatedPassword"], values: Self.secureValues)
        plain.open(forms)
        plain.edit(edits, forms: forms, fields: Workload.signupFields, values: Self.secureValues)
        let secureFile = try secure.write(named: "secure-\(edits).jsonl", in: folder)
        let plainFile = try plain.write(named: "signup-\(edits).jsonl", in: folder)
        defer { for path in [secureFile, plainFile, directory.path] { try? FileManager.default.removeItem(atPath: path) } }
        let arguments = ["--clock", "virtual", "--directory", directory.path] + rpcOptions
        guard try opens("signup-secure", arguments) else { return nil }
        let timings = try alternatingRuns(of: [
            Command(executable: rpc, arguments: arguments, file: secureFile), Command(executable: rpc, arguments: arguments, file: plainFile),
        ])
        return (median(timings.seconds[0]), median(timings.seconds[1]), secure.lines.count)
    }
}
