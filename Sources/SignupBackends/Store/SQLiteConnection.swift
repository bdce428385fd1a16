import CSQLite
import SignupCore

/// One SQLite connection with prepared statements and typed errors. Not thread-safe by itself:
/// `UserStore` serialises every use.
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?

    /// SQLite's marker that bound text must be copied before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String, busyTimeout: TimeSpan) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard code == SQLITE_OK else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? signup_sqlite_problem().map { String(cString: $0) } ?? "out of memory"
            sqlite3_close(db)
            handle = nil
            throw Self.error(code: code, message: reason, path: path)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.milliseconds))
    }

    deinit {
        close()
    }

    /// Closes the connection; later calls fail with `StoreError.closed`. SQLite has the last
    /// connection to a database (of any process) fold the write-ahead log back into the database
    /// file and remove the `-wal` file as it closes, so the database file alone is then the whole
    /// store. No explicit checkpoint: a full one blocks other processes' writers while it waits.
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        guard handle != nil else { throw .closed(path: path) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw Self.error(code: code, message: message.map { String(cString: $0) } ?? "", path: path)
        }
    }

    /// Runs one statement with text or integer parameters and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(StoreError) -> [[SQLiteValue]] {
        guard handle != nil else { throw .closed(path: path) }
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK else { throw lastError(code) }
        for (index, parameter) in parameters.enumerated() {
            let position = Int32(index + 1)
            switch parameter {
            case .integer(let value): code = sqlite3_bind_int64(statement, position, value)
            case .text(let value): code = sqlite3_bind_text(statement, position, value, -1, Self.transient)
            case .null: code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw lastError(code) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw lastError(code) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_NULL: return .null
                default: return .text(String(cString: sqlite3_column_text(statement, column)))
                }
            })
        }
    }

    private func lastError(_ code: Int32) -> StoreError {
        Self.error(code: code, message: String(cString: sqlite3_errmsg(handle)), path: path)
    }

    /// SQLITE_CONSTRAINT_UNIQUE and SQLITE_CONSTRAINT_PRIMARYKEY, macro expressions Swift cannot import.
    private static let uniqueConstraintCodes = [SQLITE_CONSTRAINT | (8 << 8), SQLITE_CONSTRAINT | (6 << 8)]

    /// Whether an error is a UNIQUE or PRIMARY KEY constraint failing.
    static func isUniqueViolation(_ error: StoreError) -> Bool {
        if case .sqlite(_, let code, _) = error { return uniqueConstraintCodes.contains(code) }
        return false
    }

    static func error(code: Int32, message: String, path: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: message)
        case SQLITE_NOTADB: return .notADatabase(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_PERM, SQLITE_AUTH: return .cannotOpen(path: path, reason: message)
        default: return .sqlite(path: path, code: code, message: message)
        }
    }
}

/// A value bound to or read from a statement.
enum SQLiteValue: Hashable {
    case integer(Int64)
    case text(String)
    case null
}
