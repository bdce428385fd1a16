import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for one test: `initdb` into a temporary folder and `pg_ctl` on a Unix
/// socket there and a free port, run as the `postgres` user when the tests run as root (the
/// server refuses root). Stopped by `stop()` (and when dropped): only the server it started.
final class PostgresServer {
    /// Debian's server binaries, the newest version installed; nil when PostgreSQL is not.
    static let binaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap({ Int($0) }).sorted().last else { return nil }
        let folder = "\(root)/\(newest)/bin"
        return FileManager.default.fileExists(atPath: "\(folder)/initdb") ? folder : nil
    }()

    static var isInstalled: Bool { binaries != nil }

    let folder: String
    let port: Int
    private var isRunning = false

    /// The libpq connection string of the server's `postgres` database.
    var conninfo: String { "host=\(folder) port=\(port) user=postgres dbname=postgres" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("signup-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = Self.freePort()
        if getuid() == 0, let user = getpwnam("postgres") {
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        try Self.run("initdb", ["-D", "\(folder)/data", "-A", "trust", "-U", "postgres", "--no-sync"])
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    func start() throws {
        try Self.run("pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-t", "60",
                                "-o", "-p \(port) -k \(folder) -c listen_addresses=''", "start"])
        isRunning = true
    }

    /// Stops the server (fast shutdown: sessions are ended, committed data stays).
    func stop() {
        guard isRunning else { return }
        isRunning = false
        _ = try? Self.run("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }

    /// One query through psql, for checking what the database holds.
    func query(_ sql: String) throws -> [String] {
        let output = try Self.run("psql", ["-h", folder, "-p", String(port), "-U", "postgres", "-At", "-c", sql])
        return output.split(separator: "\n").map(String.init)
    }

    /// Runs a PostgreSQL tool and waits for it. Spawned directly rather than with `Process`: the
    /// server that `pg_ctl start` leaves running must inherit none of this process's descriptors
    /// (Foundation waits for its child through one, and the test runner's pipes would stay open).
    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        guard let binaries else { throw PostgresServerError(message: "PostgreSQL is not installed") }
        let command = getuid() == 0
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", "\(binaries)/\(tool)"] + arguments
            : ["\(binaries)/\(tool)"] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("signup-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc's closefrom action (2.34 and later), reached by name as the Glibc module hides it.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        // The postgres user may not enter this process's folder (a fresh clone under a private
        // temporary folder): each tool starts in / rather than warn into its output.
        typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") {
            _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, "/")
        }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw PostgresServerError(message: "cannot run \(tool): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0, code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            throw PostgresServerError(message: "\(tool) failed (status \(status)): \(text)")
        }
        return text
    }

    private static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct PostgresServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
