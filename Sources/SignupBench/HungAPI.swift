import CEventPoll
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Figure 8 (issue 54): one slow API stalls no other check. The bench's own API on the loopback
/// answers `/quick/…` after 300 ms and never answers `/hang/…`. A plain client first asks it
/// `healthy` times at once (the bar is its p99); then one `signup-rpc` is asked the same at once,
/// each question a form's `http` check, beside `hung` checks against the hung path (`timeoutMs`
/// 3000), all written in one go over stdio.
struct HungAPI {
    let rpc: String
    let folder: URL
    let healthy: Int
    let hung: Int
    let rpcOptions: [String]

    static let delay: useconds_t = 300_000
    static let timeoutMs: UInt64 = 3000

    struct Outcome {
        /// The plain client's latencies, nanoseconds, sorted.
        var plain: [UInt64]
        /// Each healthy check's edit → `ok`, nanoseconds, sorted.
        var checks: [UInt64]
        /// Each hung check's edit → `backend.unavailable`, nanoseconds, sorted.
        var hungFailures: [UInt64]
        /// Hung requests the API saw, and how many of them their client ended.
        var hungArrived: Int
        var hungEnded: Int
    }

    /// The figure's two rows: the healthy checks against the plain client's p99, and the hung ones.
    func rows(_ outcome: Outcome) -> [Row] {
        let bar = percentile(outcome.plain, 0.99)
        let checks = outcome.checks.isEmpty ? Double.infinity : percentile(outcome.checks, 0.99)
        let timeout = Double(Self.timeoutMs) * 1e6
        let first = Double(outcome.hungFailures.first ?? 0), last = Double(outcome.hungFailures.last ?? 0)
        return [
            Row(figure: "8. \(healthy) checks beside \(hung) hung, verdict p99",
                measured: Report.duration(checks) + " (\(outcome.checks.count) of \(healthy) ok)",
                baseline: "plain client p99 " + Report.duration(bar), ratio: "+" + Report.duration(max(0, checks - bar)),
                target: "≤ plain p99 + 50 ms", met: outcome.checks.count == healthy && checks <= bar + 50_000_000),
            Row(figure: "8. the \(hung) hung checks",
                measured: "\(outcome.hungArrived) sent; \(outcome.hungFailures.count) failed at \(Report.duration(first))–\(Report.duration(last)); "
                    + "\(outcome.hungEnded) ended on the wire",
                baseline: "", ratio: "—", target: "all sent, each failing at its 3 s timeout",
                met: outcome.hungArrived == hung && outcome.hungFailures.count == hung && first >= timeout
                    && last <= timeout + 250_000_000 && outcome.hungEnded == hung),
        ]
    }

    func run() throws -> Outcome {
        let api = try LoopbackAPI()
        defer { api.stop() }
        let plain = try Self.plainClient(port: api.port, count: healthy)
        let forms = folder.appendingPathComponent("hung-api-forms")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        try Data(Self.form(port: api.port).utf8).write(to: forms.appendingPathComponent("stall.json"))
        let server = try ChildProcess(rpc, ["--clock", "real", "--debounce-ms", "0", "--forms", forms.path] + rpcOptions)
        defer { server.wait() }
        var input: [UInt8] = []
        let names = (0..<hung).map { "hung\($0)" } + (0..<healthy).map { "ok\($0)" }
        for name in names {
            let field = name.hasPrefix("hung") ? "slow" : "quick"
            input += Array(#"{"jsonrpc":"2.0","id":"\#(name)","method":"form.open","params":{"kind":"stall","form":"\#(name)"}}"#.utf8) + [10]
            input += Array(#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"\#(name)","field":"\#(field)","value":"\#(name)"}}"#.utf8) + [10]
        }
        let sent = now()
        server.send(input)
        var settled: [String: (UInt64, Bool)] = [:]
        while settled.count < names.count, let line = server.readLine() {
            let text = String(decoding: line, as: UTF8.self)
            guard text.contains(#""method":"form.fieldChanged""#), text.contains(#""field":"slow""#) || text.contains(#""field":"quick""#),
                  text.contains(#""state":"ok""#) || text.contains(#""state":"failed""#),
                  let form = text.range(of: #""form":""#).map({ String(text[$0.upperBound...].prefix { $0 != "\"" }) }),
                  settled[form] == nil else { continue }
            settled[form] = (now() - sent, text.contains(#""state":"ok""#))
        }
        server.closeInput()
        _ = server.drain()
        let ended = api.waitForHungToEnd(hung, atMost: 5)
        return Outcome(
            plain: plain,
            checks: settled.filter { $0.key.hasPrefix("ok") && $0.value.1 }.map(\.value.0).sorted(),
            hungFailures: settled.filter { $0.key.hasPrefix("hung") && !$0.value.1 }.map(\.value.0).sorted(),
            hungArrived: api.hungArrived, hungEnded: ended)
    }

    static func form(port: UInt16) -> String {
        func check(_ path: String) -> String {
            #"{"name":"c","kind":"http","url":"http://127.0.0.1:\#(port)\#(path)","timeoutMs":\#(timeoutMs),"#
                + #""validating":{"code":"c","message":"Checking..."},"passed":{"code":"p","message":"Fine"},"#
                + #""rejected":{"code":"r","message":"No"},"unavailable":{"code":"backend.unavailable","message":"Error contacting server"}}"#
        }
        return #"{"kind":"stall","fields":[{"name":"slow","remoteChecks":["# + check("/hang/{value}")
            + #"]},{"name":"quick","remoteChecks":["# + check("/quick/{value}") + "]}],"
            + #""submit":{"action":"http","url":"http://127.0.0.1:\#(port)/accounts","messages":{"#
            + #""refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}"#
    }

    /// `count` requests for the quick path at once, a thread and a connection each; their
    /// latencies, sorted.
    static func plainClient(port: UInt16, count: Int) throws -> [UInt64] {
        let latencies = Mutex<[UInt64]>([])
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                start.wait()
                let began = now()
                guard let fd = try? Loopback.connect(port: port) else { return }
                defer { close(fd) }
                let request = Array("GET /quick/plain\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
                _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                var buffer = [UInt8](repeating: 0, count: 4096)
                while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
                let took = now() - began
                latencies.withLock { $0.append(took) }
            }
            thread.stackSize = 128 << 10
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        finished.wait()
        return latencies.withLock { $0.sorted() }
    }
}

/// The bench's own HTTP API on 127.0.0.1, on one thread and one epoll instance, so that its own
/// scheduling is no part of the latencies measured through it (a thread a connection stalled its
/// accepting by 80-100 ms in about a third of runs, once a hundred hung connections were open):
/// `/hang/…` is never answered and waits for its client to go away, anything else is answered
/// `{"valid":true}` 300 ms after its request was read. Unchecked: what the thread uses is its
/// own; the counts are behind a lock.
final class LoopbackAPI: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let poll: Int32
    private let waker: Int32
    private let counts = Mutex<(arrived: Int, ended: Int, stopped: Bool)>((0, 0, false))

    init() throws {
        // A backlog for every connection of a figure at once.
        (listener, port) = try Loopback.listen(backlog: 4096)
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        poll = signup_poll_create()
        waker = poll >= 0 ? signup_poll_make_waker(poll) : -1
        guard poll >= 0, waker >= 0, signup_poll_watch(poll, listener, 0, Int32(SIGNUP_POLL_READABLE), Self.listenerToken) == 0 else {
            throw BenchError.system("epoll", errno)
        }
        Thread { [self] in serve() }.start()
    }

    var hungArrived: Int { counts.withLock { $0.arrived } }

    /// Waits until `count` hung requests have been ended by their client, for at most `seconds`;
    /// how many were.
    func waitForHungToEnd(_ count: Int, atMost seconds: Double) -> Int {
        let deadline = now() + UInt64(seconds * 1e9)
        while counts.withLock({ $0.ended }) < count, now() < deadline { usleep(10_000) }
        return counts.withLock { $0.ended }
    }

    func stop() {
        counts.withLock { $0.stopped = true }
        signup_poll_wake(waker)
    }

    /// Token 0 is the waker's; a connection's token is its descriptor + 2.
    private static let listenerToken: UInt64 = 1

    /// A connection as the thread knows it: the request read so far, and whether it hangs.
    private struct Connection {
        /// Its number among the connections accepted, so that a descriptor reused is told apart.
        let serial: UInt64
        var head: [UInt8] = []
        var hangs = false
        var answered = false
    }

    private func serve() {
        var connections: [Int32: Connection] = [:]
        // Answers due, in the order their requests were read (every delay is the same), each
        // with its connection's serial, so that a descriptor reused meanwhile is not answered.
        var due: [(at: UInt64, fd: Int32, serial: UInt64)] = []
        var nextDue = 0
        var accepted: UInt64 = 0
        var tokens = [UInt64](repeating: 0, count: 256)
        var ready = [UInt8](repeating: 0, count: 256)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let body = #"{"valid":true}"#
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)

        func end(_ fd: Int32) {
            if connections.removeValue(forKey: fd)?.hangs == true { counts.withLock { $0.ended += 1 } }
            close(fd)
        }
        defer {
            for fd in connections.keys { close(fd) }
            close(listener)
            close(waker)
            close(poll)
        }
        while !counts.withLock({ $0.stopped }) {
            // Until the next answer is due (rounded up to the millisecond), or for ever.
            let time = now()
            let timeout: Int32 = nextDue == due.count ? -1
                : due[nextDue].at <= time ? 0 : Int32(clamping: (due[nextDue].at - time) / 1_000_000 + 1)
            let count = signup_poll_wait(poll, &tokens, &ready, Int32(tokens.count), timeout)
            for event in 0..<max(0, Int(count)) {
                switch tokens[event] {
                case 0:
                    signup_poll_drain_waker(waker)
                case Self.listenerToken:
                    while case let fd = accept(listener, nil, nil), fd >= 0 {
                        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                        accepted += 1
                        connections[fd] = Connection(serial: accepted)
                        _ = signup_poll_watch(poll, fd, 0, Int32(SIGNUP_POLL_READABLE), UInt64(fd) + 2)
                    }
                default:
                    let fd = Int32(tokens[event] - 2)
                    guard connections[fd] != nil else { continue }
                    let read = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if read < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    guard read > 0 else { end(fd); continue }
                    guard var connection = connections[fd], !connection.hangs, !connection.answered else { continue }
                    connection.head += buffer[0..<read]
                    if connection.head.ends(with: Array("\r\n\r\n".utf8)) {
                        let path = String(decoding: connection.head, as: UTF8.self).split(separator: " ").dropFirst().first ?? ""
                        if path.hasPrefix("/hang/") {
                            connection.hangs = true
                            counts.withLock { $0.arrived += 1 }
                        } else {
                            connection.answered = true
                            due.append((now() + UInt64(HungAPI.delay) * 1000, fd, connection.serial))
                        }
                    }
                    connections[fd] = connection
                }
            }
            let answeredBy = now()
            while nextDue < due.count, due[nextDue].at <= answeredBy {
                let (_, fd, serial) = due[nextDue]
                nextDue += 1
                guard connections[fd]?.serial == serial else { continue }
                _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                end(fd)
            }
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
