import Foundation
import Synchronization

/// A list of commonly used passwords, one per line, compared case-insensitively with the whole
/// password (NIST SP 800-63B rev. 4 §3.1.1.2). `Scripts/install-password-lists` installs the one
/// Django publishes (about 20 000 passwords) at `defaultPath`; a form file may name its own.
public final class PasswordList: Hashable, Sendable {
    /// Where the built-in kinds read their list: `$SIGNUP_PASSWORD_LIST` when set, else this.
    public static let defaultPath = "/usr/local/share/signup-rpc/common-passwords.txt"

    /// The installed list, read on first use (a process that opens no form using it never reads
    /// it), or what is wrong with it.
    public static let installed = PasswordList(
        lazilyReading: ProcessInfo.processInfo.environment["SIGNUP_PASSWORD_LIST"] ?? defaultPath)

    /// What a list holds once read.
    private struct Contents: Sendable {
        /// Lower-cased; nil when the list could not be read.
        var entries: Set<String>?
        /// The most bytes an entry has: a longer password is in no list.
        var longest = 0
        /// Why the list cannot be used; nil when it can.
        var problem: String?

        init(_ passwords: [String]) {
            var entries = Set<String>()
            for password in passwords where !password.isEmpty {
                let entry = password.lowercased()
                longest = max(longest, entry.utf8.count)
                entries.insert(entry)
            }
            self.entries = entries
        }

        init(problem: String) {
            self.problem = problem
        }
    }

    public let path: String
    /// Nil until a lazily read list is first used.
    private let contents: Mutex<Contents?>

    /// Reads a list now: UTF-8, one password per line, blank lines ignored.
    public convenience init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        self.init(source: path, passwords: text.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// A list given whole; `source` names it (a file it was read from, or where it was written).
    public init(source: String, passwords: [String]) {
        path = source
        contents = Mutex(Contents(passwords))
    }

    private init(lazilyReading path: String) {
        self.path = path
        contents = Mutex(nil)
    }

    /// The contents, read now if this list is read lazily and has not been yet.
    private func read<Value>(_ body: (Contents) -> Value) -> Value {
        contents.withLock { contents in
            if let contents { return body(contents) }
            let text = try? String(contentsOfFile: path, encoding: .utf8)
            let read = text.map { Contents($0.split(whereSeparator: \.isNewline).map(String.init)) }
                ?? Contents(problem: "the common-password list \(path) is missing (install it with Scripts/install-password-lists)")
            contents = read
            return body(read)
        }
    }

    /// Why the list cannot be used; nil when it can.
    public var problem: String? { read(\.problem) }

    /// The number of passwords on the list.
    public var count: Int { read { $0.entries?.count ?? 0 } }

    /// The passwords, lower-cased and sorted: how a recording keeps a list a form file named.
    public var sortedPasswords: [String] { read { ($0.entries ?? []).sorted() } }

    /// Whether `password` is on the list; false for a list that could not be read.
    public func contains(_ password: String) -> Bool {
        read { contents in
            guard let entries = contents.entries, password.utf8.count <= contents.longest * 4 else { return false }
            return entries.contains(password.lowercased())
        }
    }

    public static func == (left: PasswordList, right: PasswordList) -> Bool { left.path == right.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
