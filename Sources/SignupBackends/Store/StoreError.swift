import SignupCore

/// Why the user store could not do what was asked, in words an operator can act on.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notADatabase(path: String)
    case readOnly(path: String)
    case locked(path: String)
    case diskFull(path: String)
    case newerSchema(path: String, version: Int)
    case sqlite(path: String, code: Int32, message: String)
    case hashing(String)
    /// The store was closed (as the process ends) before the call.
    case closed(path: String)
    /// The PostgreSQL server could not be reached, or the connection was lost and retries failed.
    /// `target` names the database without its password.
    case databaseUnreachable(target: String, reason: String)
    /// A PostgreSQL statement failed.
    case database(target: String, message: String)
    /// A PostgreSQL write met a value that must be unique and is taken.
    case uniqueViolation(target: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the user store '\(path)': \(reason); check that the folder exists and is writable"
        case .notADatabase(let path):
            return "'\(path)' is not an SQLite database; point --store at a new file or a store made by signup-rpc"
        case .readOnly(let path):
            return "the user store '\(path)' is read-only; make the file and its folder writable"
        case .locked(let path):
            return "the user store '\(path)' stayed locked by another process beyond the busy timeout"
        case .diskFull(let path):
            return "the disk holding the user store '\(path)' is full"
        case .newerSchema(let path, let version):
            return "the user store '\(path)' has schema version \(version), newer than this signup-rpc understands; upgrade signup-rpc"
        case .closed(let path):
            return "the user store '\(path)' is closed"
        case .sqlite(let path, let code, let message):
            return "the user store '\(path)' failed: \(message) (SQLite code \(code))"
        case .hashing(let reason):
            return reason
        case .databaseUnreachable(let target, let reason):
            return "cannot reach the PostgreSQL user directory \(target): \(reason)"
        case .database(let target, let message):
            return "the PostgreSQL user directory \(target) failed: \(message)"
        case .uniqueViolation(let target):
            return "the PostgreSQL user directory \(target) refused a value that must be unique"
        }
    }
}
