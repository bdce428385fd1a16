import CEventPoll
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figure 9 (issue 58): ten thousand TCP connections to one `signup-rpc --listen`, all connected at
/// once, each typing a name at five keys a second (a `form.edit` request a key), then its
/// password twice, and registering on one SQLite store. The connections type in ten waves, one
/// every `wavePeriod`: registrations (yescrypt, about 19 ms of a core each) come faster than the
/// hashing worker takes them, so every wave after the first types while registrations are being
/// hashed. Each key's latency (sent → its answer, which carries its `fieldChanged` in the same
/// write) is counted as during a registration burst when any registration was in flight as it
/// was sent, otherwise outside.
///
/// The load generator (`WaveDriver`) is this one thread on epoll with non-blocking sockets (no
/// thread a connection), so that it is not what limits the server; its CPU time is reported beside.
struct ManyConnections {
    let rpc: String
    let folder: URL
    let connections: Int
    let rpcOptions: [String]

    static let waves = 10
    /// Five keys a second.
    static let keyInterval: UInt64 = 200_000_000
    static let password = "correct horse"

    /// A wave starts every 10 ms for each of its connections: 10 s for 1 000.
    var wavePeriod: UInt64 { UInt64(max(1, connections / Self.waves)) * 10_000_000 }

    struct Outcome {
        /// Key → its answer, nanoseconds, by whether a registration was in flight as it was sent.
        var outsideBursts: [UInt64] = []
        var duringBursts: [UInt64] = []
        var idleRSS = 0
        var connectedRSS = 0
        /// The server's threads with a tenth of the connections open, and with all.
        var threadsAtATenth = 0
        var threadsAtAll = 0
        var registered = 0
        var generatorCPUSeconds = 0.0
        var seconds = 0.0
    }

    func run() throws -> Outcome {
        let port = try ManyClients.freePort()
        // A store of its own each run: names registered by an earlier build's run would be taken.
        let store = folder.appendingPathComponent("connections-\(connections)-\(UUID().uuidString).sqlite").path
        let server = try ChildProcess(rpc, ["--listen", "tcp:127.0.0.1:\(port)", "--store", store, "--debounce-ms", "300",
                                                   "--max-connections", "\(connections)"] + rpcOptions)
        defer { kill(server.pid, SIGTERM); server.wait() }
        try ManyClients.waitForListener(port)
        var outcome = Outcome()
        outcome.idleRSS = ManyClients.memory(of: [server.pid]).rss
        var driver = try WaveDriver(port: port, count: connections, keyInterval: Self.keyInterval, wavePeriod: wavePeriod)
        defer { driver.closeAll() }
        let cpuBefore = Self.cpuSeconds()
        let started = now()
        try driver.connect(upTo: connections / 10)
        outcome.threadsAtATenth = Self.threads(of: server.pid)
        try driver.connect(upTo: connections)
        outcome.threadsAtAll = Self.threads(of: server.pid)
        outcome.connectedRSS = ManyClients.memory(of: [server.pid]).rss
        try driver.typeAndRegister()
        outcome.seconds = Double(now() - started) / 1e9
        outcome.generatorCPUSeconds = Self.cpuSeconds() - cpuBefore
        outcome.outsideBursts = driver.outsideBursts.sorted()
        outcome.duringBursts = driver.duringBursts.sorted()
        outcome.registered = driver.clients.filter { $0.outcome == true }.count
        return outcome
    }

    /// The figure: `rpc` measured, beside `other` when given, each with `budgetsOff` when it has
    /// check budgets; one row saying so for a build without `--listen`.
    static func figure(rpc: String, beside other: String?, connections: Int, folder: URL, budgetsOff: [String],
                       progress: (String) -> Void) throws -> [Row] {
        guard try EndToEnd.helpText(of: rpc).contains("--listen") else {
            return [Row(figure: "9. ten thousand connections", measured: "no --listen in this build", baseline: "", ratio: "—", target: "", met: nil)]
        }
        func measure(_ build: String) throws -> Outcome {
            let options = try EndToEnd.helpText(of: build).contains("--session-checks-per-minute") ? budgetsOff : []
            return try ManyConnections(rpc: build, folder: folder, connections: connections, rpcOptions: options).run()
        }
        let measured = try measure(rpc)
        var before: Outcome?
        if let other {
            progress("ten thousand connections, \(other)")
            before = try measure(other)
        }
        return rows(measured, beside: before, connections: connections)
    }

    /// The figure's rows: this build's outcome, beside `before`'s when it was run.
    private static func rows(_ outcome: Outcome, beside before: Outcome?, connections: Int) -> [Row] {
        func latency(_ samples: [UInt64]) -> String {
            guard !samples.isEmpty else { return "no keys" }
            return "p50 " + Report.duration(percentile(samples, 0.5)) + ", p99 " + Report.duration(percentile(samples, 0.99))
        }
        func perConnection(_ outcome: Outcome) -> Int { (outcome.connectedRSS - outcome.idleRSS) / connections }
        let label = "9. \(connections) connections"
        let beside = before.map { _ in "the build before: " } ?? ""
        let p99Outside = outcome.outsideBursts.isEmpty ? Double.infinity : percentile(outcome.outsideBursts, 0.99)
        let p99During = outcome.duringBursts.isEmpty ? Double.infinity : percentile(outcome.duringBursts, 0.99)
        return [
            Row(figure: "\(label), key → its answer outside registration bursts (\(outcome.outsideBursts.count) keys)",
                measured: latency(outcome.outsideBursts), baseline: before.map { beside + latency($0.outsideBursts) } ?? "",
                ratio: "—", target: "p99 ≤ 20 ms", met: p99Outside <= 20_000_000),
            Row(figure: "\(label), key → its answer during registration bursts (\(outcome.duringBursts.count) keys)",
                measured: latency(outcome.duringBursts), baseline: before.map { beside + latency($0.duringBursts) } ?? "",
                ratio: "—", target: "p99 ≤ 100 ms", met: p99During <= 100_000_000),
            Row(figure: "\(label), memory", measured: Report.megabytes(outcome.connectedRSS) + " RSS, \(perConnection(outcome) / 1024) KiB a connection",
                baseline: before.map { beside + Report.megabytes($0.connectedRSS) + ", \(perConnection($0) / 1024) KiB a connection" } ?? "",
                ratio: before.map { Report.times(Double(perConnection(outcome)) / Double(max(1, perConnection($0)))) } ?? "—",
                target: "≤ 40 KiB a connection", met: perConnection(outcome) <= 40 * 1024),
            Row(figure: "\(label), server threads at \(connections / 10) and at \(connections) connections",
                measured: "\(outcome.threadsAtATenth), \(outcome.threadsAtAll)",
                baseline: before.map { beside + "\($0.threadsAtATenth), \($0.threadsAtAll)" } ?? "", ratio: "—",
                target: "constant", met: outcome.threadsAtAll <= outcome.threadsAtATenth + 4),
            Row(figure: "\(label), registered", measured: "\(outcome.registered) of \(connections) in \(String(format: "%.0f", outcome.seconds)) s",
                baseline: before.map { beside + "\($0.registered) of \(connections) in \(String(format: "%.0f", $0.seconds)) s" } ?? "",
                ratio: "—", target: "all register", met: outcome.registered == connections),
            Row(figure: "\(label), the load generator's CPU (one thread on epoll)",
                measured: String(format: "%.0f %% of one core", 100 * outcome.generatorCPUSeconds / max(outcome.seconds, 0.001)),
                baseline: "", ratio: "—", target: "not the bottleneck", met: nil),
        ]
    }

    static func threads(of pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
    }

    /// This process's CPU time, user and system.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

}
