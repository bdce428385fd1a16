import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Figure 7 (issue 39): many clients at once, each typing a name key by key (50 ms apart) and
/// registering, all on one SQLite store — through one `signup-rpc --listen` (a TCP connection
/// each), beside websocketd's process per client. A client is a thread; all connect and open
/// their form before any types, so the memory is read with every one connected.
struct ManyClients {
    let rpc: String
    let folder: URL
    let sessions: Int

    struct Outcome {
        /// Each client's first key → its `validating` field event, nanoseconds.
        var firstKeyToEvent: [UInt64] = []
        /// Each client's last key of its name → the name's availability (`ok`), less the
        /// debounce, nanoseconds: how long the question waited and took while others registered.
        var lastKeyToAvailability: [UInt64] = []
        var rss = 0
        var pss = 0
        /// The one process's RSS before any connection (`--listen` only).
        var idleRSS: Int?
        var registered = 0
    }

    static let keyDelay: useconds_t = 50_000
    /// The server's quiet period before it asks about a name (`--debounce-ms`), nanoseconds.
    static let debounce: UInt64 = 300_000_000

    /// One `signup-rpc --listen` on a free port.
    func overOneProcess() throws -> Outcome {
        let port = try Self.freePort()
        let store = folder.appendingPathComponent("listen-\(sessions).sqlite").path
        let server = try ChildProcess(rpc, ["--listen", "tcp:127.0.0.1:\(port)", "--store", store, "--debounce-ms", "300"])
        defer { kill(server.pid, SIGTERM); server.wait() }
        try Self.waitForListener(port)
        let idle = Self.memory(of: [server.pid]).rss
        var outcome = try run(port: port, webSocket: false) { Self.memory(of: [server.pid]) }
        outcome.idleRSS = idle
        return outcome
    }

    /// websocketd on a free port, a `signup-rpc` per client; nil without websocketd.
    func throughWebsocketd() throws -> Outcome? {
        guard let websocketd = Self.onPath("websocketd") else { return nil }
        let port = try Self.freePort()
        let store = folder.appendingPathComponent("websocketd-\(sessions).sqlite").path
        let bridge = try ChildProcess(websocketd, ["--address=127.0.0.1", "--port=\(port)", "--loglevel=fatal",
                                                   rpc, "--store", store, "--debounce-ms", "300"])
        defer { kill(bridge.pid, SIGTERM); bridge.wait() }
        try Self.waitForListener(port)
        return try run(port: port, webSocket: true) { Self.memory(of: Self.children(of: bridge.pid)) }
    }

    private func run(port: UInt16, webSocket: Bool, memoryNow: () -> (rss: Int, pss: Int)) throws -> Outcome {
        let connected = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let results = Mutex<[ClientSession.Outcome]>([])
        let failures = Mutex<[String]>([])
        let finished = DispatchGroup()
        for number in 0..<sessions {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                do {
                    var client = try ClientSession(number: number, connection: ClientConnection(port: port, webSocket: webSocket))
                    try client.connectAndOpen()
                    connected.signal()
                    start.wait()
                    let outcome = try client.typeAndRegister()
                    results.withLock { $0.append(outcome) }
                } catch {
                    failures.withLock { $0.append("client \(number): \(error)") }
                    connected.signal()
                }
            }
            thread.stackSize = 256 << 10
            thread.start()
        }
        for _ in 0..<sessions { connected.wait() }
        let memory = memoryNow()
        for _ in 0..<sessions { start.signal() }
        finished.wait()
        if let failure = failures.withLock({ $0.first }) { throw BenchError.unexpected(failure) }
        let all = results.withLock { $0 }
        return Outcome(firstKeyToEvent: all.compactMap(\.latency).sorted(),
                       lastKeyToAvailability: all.compactMap(\.availability).sorted(), rss: memory.rss, pss: memory.pss,
                       registered: all.filter(\.registered).count)
    }

    /// One client's script, over its connection.
    private struct ClientSession {
        let number: Int
        let connection: ClientConnection
        private var nextID = 0

        init(number: Int, connection: ClientConnection) {
            self.number = number
            self.connection = connection
        }

        mutating func call(_ method: String, _ params: String, watching: (String) -> Void = { _ in }) throws {
            nextID += 1
            try connection.send(#"{"jsonrpc":"2.0","id":\#(nextID),"method":"\#(method)","params":\#(params)}"#)
            let answer = #"{"jsonrpc":"2.0","id":\#(nextID),"#
            while let line = try connection.readLine() {
                if line.hasPrefix(answer) { return }
                watching(line)
            }
            throw BenchError.unexpected("the connection ended before the answer to \(method)")
        }

        mutating func connectAndOpen() throws {
            try call("initialize", #"{"clientInfo":{"name":"signup-bench"}}"#)
            try call("form.open", #"{"form":"f"}"#)
        }

        struct Outcome {
            var latency: UInt64?
            var availability: UInt64?
            var registered: Bool
        }

        /// The first key's latency to its `validating` event, the last key's to the name's
        /// availability less the debounce, and whether the name registered.
        mutating func typeAndRegister() throws -> Outcome {
            let name = String(format: "user%04dx", number)
            var latency: UInt64?
            var lastKey: UInt64?, availability: UInt64?
            var enabled = false
            var outcome: Bool?
            func watch(_ line: String, since sent: UInt64?) {
                if let sent, latency == nil, line.contains(#""field":"username","state":"validating""#) { latency = now() - sent }
                if let lastKey, availability == nil, line.contains(#""field":"username","state":"ok""#) {
                    // One reading of the clock: two could differ, and the second be the larger.
                    let elapsed = now() - lastKey
                    availability = elapsed - min(elapsed, ManyClients.debounce)
                }
                if line.contains(#""method":"form.submitEnabledChanged""#) { enabled = line.contains(#""enabled":true"#) }
                if line.contains(#""state":"succeeded""#) { outcome = true }
                if line.contains(#""method":"form.submissionChanged""#) && line.contains(#""state":"failed""#) { outcome = false }
            }
            for end in 1...name.count {
                let sent = end == 1 ? now() : nil
                if end == name.count { lastKey = now() }
                try call("form.edit", #"{"form":"f","field":"username","value":"\#(name.prefix(end))"}"#) { watch($0, since: sent) }
                usleep(ManyClients.keyDelay)
            }
            for field in ["password", "repeatedPassword"] {
                try call("form.edit", #"{"form":"f","field":"\#(field)","value":"correct horse"}"#) { watch($0, since: nil) }
            }
            while !enabled, let line = try connection.readLine() { watch(line, since: nil) }
            try call("form.submit", #"{"form":"f"}"#) { watch($0, since: nil) }
            while outcome == nil, let line = try connection.readLine() { watch(line, since: nil) }
            return Outcome(latency: latency, availability: availability, registered: outcome ?? false)
        }
    }

    // MARK: The machine

    static func freePort() throws -> UInt16 {
        let probe = try Loopback.listen(backlog: 1)
        close(probe.fd)
        return probe.port
    }

    /// Waits (at most 10 s) until something accepts connections on `port`.
    static func waitForListener(_ port: UInt16) throws {
        let deadline = now() + 10_000_000_000
        while !ClientConnection.canConnect(port: port) {
            guard now() < deadline else { throw BenchError.unexpected("nothing listens on port \(port)") }
            usleep(20_000)
        }
    }

    static func onPath(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// RSS and PSS summed over `pids`, in bytes.
    static func memory(of pids: [pid_t]) -> (rss: Int, pss: Int) {
        var rss = 0, pss = 0
        for pid in pids {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
                if fields[0] == "Rss:" { rss += kilobytes * 1024 }
                if fields[0] == "Pss:" { pss += kilobytes * 1024 }
            }
        }
        return (rss, pss)
    }
}
