import Foundation
import SignupCore

/// The input files the benchmark feeds: JSON-RPC lines built here, reproducibly from a seed.
struct Workload {
    private(set) var lines: [String] = []
    /// The `at` of the last edit: edits one virtual millisecond apart, across calls.
    private var time = 0

    /// Opens `count` forms named `<prefix>0`, `<prefix>1`, … of `kind`.
    mutating func open(_ count: Int, kind: String = "signup", prefix: String = "f") {
        for form in 0..<count {
            lines.append(#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"\#(kind)","form":"\#(prefix)\#(form)"}}"#)
        }
    }

    /// `count` edit notifications spread over `forms` forms at random, cycling through `fields`,
    /// one virtual millisecond apart.
    mutating func edit(_ count: Int, forms: Int, fields: [String], values: [String] = Self.values, prefix: String = "f", seed: UInt64 = 7) {
        var random = SeededGenerator(seed: seed)
        for index in 0..<count {
            let form = Int(random.next() % UInt64(forms))
            let field = fields[index % fields.count]
            let value = values[Int(random.next() % UInt64(values.count))]
            append(edit: field, of: "\(prefix)\(form)", to: value)
        }
    }

    /// `rounds` rounds of edits: each edits one field of every form, cycling through `fields`, to
    /// a value drawn once for the round, at one `at` a virtual millisecond after the last. Every
    /// form so gets the same edits at the same pace, however many forms there are, and only the
    /// number of forms differs between two such workloads.
    mutating func editInRounds(_ rounds: Int, forms: Int, fields: [String], values: [String] = Self.values, prefix: String = "f", seed: UInt64 = 7) {
        var random = SeededGenerator(seed: seed)
        for round in 0..<rounds {
            let field = fields[round % fields.count]
            let value = values[Int(random.next() % UInt64(values.count))]
            time += 1
            for form in 0..<forms {
                lines.append(Self.edit(field, of: "\(prefix)\(form)", to: value, at: time))
            }
        }
    }

    /// One edit of each of `fields` in every form, form by form: afterwards no form is new, and
    /// with a long debounce each remotely checked one of them holds a pending check.
    mutating func editEveryField(forms: Int, fields: [String], value: String = "alice", prefix: String = "f") {
        for form in 0..<forms {
            for field in fields { append(edit: field, of: "\(prefix)\(form)", to: value) }
        }
    }

    private mutating func append(edit field: String, of form: String, to value: String) {
        time += 1
        lines.append(Self.edit(field, of: form, to: value, at: time))
    }

    private static func edit(_ field: String, of form: String, to value: String, at time: Int) -> String {
        #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(value)","at":\#(time)}}"#
    }

    mutating func append(_ line: String) {
        lines.append(line)
    }

    /// The fields of the built-in `signup` kind.
    static let signupFields = ["username", "password", "repeatedPassword"]

    /// A mix of short, long, valid and invalid values for usernames and passwords alike.
    static let values = ["a", "al", "ali", "alic", "alice", "alice1", "bob", "b ob", "carol_", "secret", "secret1", "dave42", "x"]

    var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(lines.count * 110)
        for line in lines {
            result.append(contentsOf: line.utf8)
            result.append(UInt8(ascii: "\n"))
        }
        return result
    }

    /// The same messages in LSP's framing: a `Content-Length` header before each, no newlines.
    var lspFramedBytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(lines.count * 130)
        for line in lines {
            result.append(contentsOf: "Content-Length: \(line.utf8.count)\r\n\r\n".utf8)
            result.append(contentsOf: line.utf8)
        }
        return result
    }

    /// Writes the lines (or, with `lspFramed`, the LSP-framed messages) to a new file in `folder`
    /// and returns its path.
    func write(named name: String, in folder: URL, lspFramed: Bool = false) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(lspFramed ? lspFramedBytes : bytes).write(to: url)
        return url.path
    }
}
