import Foundation

/// A list of commonly used passwords, one per line, compared case-insensitively with the whole
/// password (NIST SP 800-63B rev. 4 §3.1.1.2). `Scripts/install-password-lists` installs the one
/// Django publishes (about 20 000 passwords) at `defaultPath`; a form file may name its own.
public final class PasswordList: Hashable, Sendable {
    /// Where the built-in kinds read their list: `$SIGNUP_PASSWORD_LIST` when set, else this.
    public static let defaultPath = "/usr/local/share/signup-rpc/common-passwords.txt"

    /// The installed list (read once, on first use), or what is wrong with it.
    public static let installed: PasswordList = {
        let path = ProcessInfo.processInfo.environment["SIGNUP_PASSWORD_LIST"] ?? defaultPath
        return (try? PasswordList(path: path))
            ?? PasswordList(path: path, entries: nil, longest: 0,
                            problem: "the common-password list \(path) is missing (install it with Scripts/install-password-lists)")
    }()

    public let path: String
    /// Lower-cased; nil when the list could not be read.
    private let entries: Set<String>?
    /// The most bytes an entry has: a longer password is in no list.
    private let longest: Int
    /// Why the list cannot be used; nil when it can.
    public let problem: String?

    /// The number of passwords on the list.
    public var count: Int { entries?.count ?? 0 }

    /// Reads a list: UTF-8, one password per line, blank lines ignored.
    public convenience init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        self.init(source: path, passwords: text.split(whereSeparator: \.isNewline).map(String.init))
    }

    /// A list given whole; `source` names it (a file it was read from, or where it was written).
    public init(source: String, passwords: [String]) {
        var entries = Set<String>()
        var longest = 0
        for password in passwords where !password.isEmpty {
            let entry = password.lowercased()
            longest = max(longest, entry.utf8.count)
            entries.insert(entry)
        }
        path = source
        self.entries = entries
        self.longest = longest
        problem = nil
    }

    /// The passwords, lower-cased and sorted: how a recording keeps a list a form file named.
    public var sortedPasswords: [String] { (entries ?? []).sorted() }

    private init(path: String, entries: Set<String>?, longest: Int, problem: String?) {
        self.path = path
        self.entries = entries
        self.longest = longest
        self.problem = problem
    }

    /// Whether `password` is on the list; false for a list that could not be read.
    public func contains(_ password: String) -> Bool {
        guard let entries, password.utf8.count <= longest * 4 else { return false }
        return entries.contains(password.lowercased())
    }

    public static func == (left: PasswordList, right: PasswordList) -> Bool { left.path == right.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
