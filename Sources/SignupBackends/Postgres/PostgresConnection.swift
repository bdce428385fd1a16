import CPostgres
import Foundation
import SignupCore

/// Why a statement did not run: the server could not be reached or the connection was lost
/// (worth a retry on a new connection), or the statement itself failed.
enum PostgresFailure: Error {
    case connection(String)
    case statement(sqlState: String, message: String)
}

/// One libpq connection. Blocking; used by one thread at a time (the store's pool hands it out).
final class PostgresConnection {
    private let handle: OpaquePointer

    init(_ conninfo: String) throws(PostgresFailure) {
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = signup_pq_connect(conninfo, &error, error.count) else {
            throw .connection(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.handle = handle
    }

    deinit {
        signup_pq_finish(handle)
    }

    var isOK: Bool { signup_pq_is_ok(handle) != 0 }

    /// Runs `sql` with text parameters (`$1`, `$2`, …; nil is SQL NULL) and returns its rows as text.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure) -> [[String?]] {
        var result = signup_pq_result()
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { copies.forEach { free($0) } }
        let arguments: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        arguments.withUnsafeBufferPointer { pointers in
            signup_pq_exec(handle, sql, Int32(pointers.count), pointers.baseAddress, &result)
        }
        defer { signup_pq_result_free(&result) }
        switch result.outcome {
        case 0:
            var rows: [[String?]] = []
            let columns = Int(result.columns)
            for row in 0..<Int(result.rows) {
                rows.append((0..<columns).map { column in result.values[row * columns + column].map { String(cString: $0) } })
            }
            return rows
        case 1:
            throw .statement(sqlState: Self.text(of: &result.sqlstate), message: Self.text(of: &result.error))
        default:
            throw .connection(Self.text(of: &result.error))
        }
    }

    private static func text<T>(of tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
