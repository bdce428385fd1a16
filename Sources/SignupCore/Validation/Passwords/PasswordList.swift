import Foundation
import Synchronization

/// A list of commonly used passwords, one per line, compared case-insensitively with the whole
/// password (NIST SP 800-63B rev. 4 §3.1.1.2). The one Django publishes (19 646 passwords) ships
/// inside the binary (`CommonPasswords.swift`); a form file may name its own.
public final class PasswordList: Hashable, Sendable {
    /// The list the built-in kinds read: the file `$SIGNUP_PASSWORD_LIST` names when it is set,
    /// else the shipped one; read on first use (a process that opens no form using it never
    /// reads it), or what is wrong with it.
    public static let common: PasswordList = ProcessInfo.processInfo.environment["SIGNUP_PASSWORD_LIST"]
        .map(PasswordList.init(readingOnFirstUse:)) ?? shipped

    /// The list that ships inside the binary, parsed on first use.
    public static let shipped = PasswordList(lazilyReading: .shipped)

    /// The list in the file at `path`, read when first used; `problem` says when it cannot be.
    public convenience init(readingOnFirstUse path: String) {
        self.init(lazilyReading: .file(path))
    }

    /// What a list holds once read.
    private struct Contents: Sendable {
        /// Lower-cased; nil when the list could not be read.
        var entries: Set<String>?
        /// The most bytes an entry has: a longer password is in no list.
        var longest = 0
        /// Why the list cannot be used; nil when it can.
        var problem: String?

        init(_ passwords: [String]) {
            var entries = Set<String>(minimumCapacity: passwords.count)
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

    /// Where a lazily read list comes from.
    private enum Source {
        case file(String)
        case shipped
    }

    public let path: String
    private let lazySource: Source?
    /// Nil until a lazily read list is first used.
    private let contents: Mutex<Contents?>

    /// Reads a list now: UTF-8, one password per line, blank lines ignored.
    public convenience init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        self.init(source: path, passwords: Self.lines(of: text))
    }

    /// A list given whole; `source` names it (a file it was read from, or where it was written).
    public init(source: String, passwords: [String]) {
        path = source
        lazySource = nil
        contents = Mutex(Contents(passwords))
    }

    private init(lazilyReading source: Source) {
        switch source {
        case .file(let path): self.path = path
        case .shipped: path = PasswordList.shippedSource
        }
        lazySource = source
        contents = Mutex(nil)
    }

    /// The contents, read now if this list is read lazily and has not been yet.
    private func read<Value>(_ body: (Contents) -> Value) -> Value {
        contents.withLock { contents in
            if let contents { return body(contents) }
            let text: String? = switch lazySource {
            case .file(let path): try? String(contentsOfFile: path, encoding: .utf8)
            case .shipped, nil: PasswordList.shippedPasswords
            }
            let read = text.map { Contents(Self.lines(of: $0)) }
                ?? Contents(problem: "the common-password list \(path) ($SIGNUP_PASSWORD_LIST) cannot be read; unset it to use the shipped list")
            contents = read
            return body(read)
        }
    }

    /// The lines of `text`, the empty ones left out: split where a character is a newline
    /// (`Character.isNewline`), found scalar by scalar, since a newline never joins the characters
    /// around it (and `\r\n` leaves an empty line between its scalars). A quarter of the time.
    static func lines(of text: String) -> [String] {
        text.unicodeScalars.split { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }.map { String($0) }
    }

    /// Why the list cannot be used, for the operator; nil when it can.
    public var problem: String? {
        // The shipped list is always there; asking need not parse it.
        if case .shipped = lazySource { return nil }
        return read(\.problem)
    }

    /// The number of passwords on the list.
    public var count: Int { read { $0.entries?.count ?? 0 } }

    /// The passwords, lower-cased and sorted: how a recording keeps a list a form file named.
    public var sortedPasswords: [String] { read { ($0.entries ?? []).sorted() } }

    /// Whether `password` is on the list; false for a list that could not be read.
    public func contains(_ password: String) -> Bool {
        read { contents in
            guard let entries = contents.entries, password.utf8.count <= contents.longest * 4 else { return false }
            return entries.contains(password.lowercasedSharingLowerASCII())
        }
    }

    public static func == (left: PasswordList, right: PasswordList) -> Bool { left.path == right.path }
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
