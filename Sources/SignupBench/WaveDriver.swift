import CEventPoll
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One client: its socket, what it has sent and when, and where its script is.
struct WaveClient {
    let fd: Int32
    let name: String
    var input: [UInt8] = []
    var output: [UInt8] = []
    var watchesWriting = false
    var isOpen = false
    /// When each request was sent (by id), and whether a registration was in flight then.
    var sentAt: [UInt64] = []
    var sentDuringBurst: [Bool] = []
    var keysSent = 0
    var submitEnabled = false
    var submitted = false
    var outcome: Bool?
}

/// Figure 9's clients on one epoll instance, driven by one thread: they connect and open their
/// forms, then type in waves (`typeAndRegister`) until every registration has its outcome.
struct WaveDriver {
    let port: UInt16
    let count: Int
    let keyInterval: UInt64
    let wavePeriod: UInt64
    let poll: Int32
    var clients: [WaveClient] = []
    var outsideBursts: [UInt64] = []
    var duringBursts: [UInt64] = []
    var registrationsInFlight = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(port: UInt16, count: Int, keyInterval: UInt64, wavePeriod: UInt64) throws {
        self.port = port
        self.count = count
        self.keyInterval = keyInterval
        self.wavePeriod = wavePeriod
        poll = signup_poll_create()
        guard poll >= 0 else { throw BenchError.system("epoll_create1", errno) }
        clients.reserveCapacity(count)
    }

    /// Closes every client's socket and the epoll instance.
    func closeAll() {
        for client in clients { close(client.fd) }
        close(poll)
    }

    /// Connects clients until there are `total`, each opening its form; waits until every
    /// form is open.
    mutating func connect(upTo total: Int) throws {
        while clients.count < total {
            let fd = try Loopback.connect(port: port)
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            guard signup_poll_watch(poll, fd, 0, Int32(SIGNUP_POLL_READABLE), UInt64(clients.count)) == 0 else {
                throw BenchError.system("epoll_ctl", errno)
            }
            clients.append(WaveClient(fd: fd, name: String(format: "user%05dx", clients.count)))
            let index = clients.count - 1
            try send(index, method: "initialize", #"{"clientInfo":{"name":"signup-bench"}}"#)
            try send(index, method: "form.open", #"{"form":"f"}"#)
        }
        let deadline = now() + 120_000_000_000
        while clients.contains(where: { !$0.isOpen }) {
            guard now() < deadline else { throw BenchError.unexpected("forms still not open after 120 s") }
            try handleEvents(timeout: 100)
        }
    }

    /// Every client's keys, in waves, until every registration has its outcome.
    mutating func typeAndRegister() throws {
        let keys = clients[0].name.count + 2
        let perWave = max(1, count / ManyConnections.waves)
        let start = now()
        var schedule: [(due: UInt64, client: Int)] = []
        schedule.reserveCapacity(count * keys)
        for client in clients.indices {
            let wave = UInt64(client / perWave), slot = UInt64(client % perWave)
            let first = start + wave * wavePeriod + slot * keyInterval / UInt64(perWave)
            for key in 0..<keys { schedule.append((first + UInt64(key) * keyInterval, client)) }
        }
        schedule.sort { $0.due < $1.due }
        var next = 0
        let deadline = start + UInt64(ManyConnections.waves) * wavePeriod + UInt64(count) * 100_000_000 + 120_000_000_000
        while clients.contains(where: { $0.outcome == nil }) {
            guard now() < deadline else { throw BenchError.unexpected("registrations still unanswered at the deadline") }
            let time = now()
            while next < schedule.count && schedule[next].due <= time {
                try typeKey(schedule[next].client)
                next += 1
            }
            let wait = next < schedule.count ? Int32(min(100, (schedule[next].due - min(schedule[next].due, now())) / 1_000_000)) : 100
            try handleEvents(timeout: wait)
        }
    }

    /// The client's next key: a letter of its name, then its password, then the password again.
    private mutating func typeKey(_ index: Int) throws {
        let name = clients[index].name, typed = clients[index].keysSent
        clients[index].keysSent += 1
        if typed < name.count {
            try send(index, method: "form.edit", #"{"form":"f","field":"username","value":"\#(name.prefix(typed + 1))"}"#)
        } else {
            let field = typed == name.count ? "password" : "repeatedPassword"
            try send(index, method: "form.edit", #"{"form":"f","field":"\#(field)","value":"\#(ManyConnections.password)"}"#)
        }
        try submitIfReady(index)
    }

    private mutating func submitIfReady(_ index: Int) throws {
        let client = clients[index]
        guard client.submitEnabled, !client.submitted, client.keysSent == client.name.count + 2 else { return }
        clients[index].submitted = true
        registrationsInFlight += 1
        try send(index, method: "form.submit", #"{"form":"f"}"#)
    }

    /// Sends a request with the client's next id, noting when.
    private mutating func send(_ index: Int, method: String, _ params: String) throws {
        let id = clients[index].sentAt.count + 1
        clients[index].sentAt.append(now())
        clients[index].sentDuringBurst.append(registrationsInFlight > 0)
        let line = #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"# + "\n"
        clients[index].output.append(contentsOf: line.utf8)
        try flush(index)
    }

    /// Writes what the client has waiting; watches for room when the socket takes not all.
    private mutating func flush(_ index: Int) throws {
        let fd = clients[index].fd
        while !clients[index].output.isEmpty {
            let written = clients[index].output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                clients[index].output.removeFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                throw BenchError.system("send to the server", errno)
            }
        }
        let watchesWriting = !clients[index].output.isEmpty
        guard watchesWriting != clients[index].watchesWriting else { return }
        clients[index].watchesWriting = watchesWriting
        let interest = Int32(SIGNUP_POLL_READABLE) | (watchesWriting ? Int32(SIGNUP_POLL_WRITABLE) : 0)
        _ = signup_poll_watch(poll, fd, 1, interest, UInt64(index))
    }

    private mutating func handleEvents(timeout: Int32) throws {
        var tokens = [UInt64](repeating: 0, count: 256)
        var ready = [UInt8](repeating: 0, count: 256)
        let count = signup_poll_wait(poll, &tokens, &ready, 256, timeout)
        guard count >= 0 else {
            if errno == EINTR { return }
            throw BenchError.system("epoll_wait", errno)
        }
        for event in 0..<Int(count) {
            let index = Int(tokens[event])
            if ready[event] & UInt8(SIGNUP_POLL_WRITABLE) != 0 { try flush(index) }
            if ready[event] & UInt8(SIGNUP_POLL_READABLE) != 0 { try read(index) }
        }
    }

    private mutating func read(_ index: Int) throws {
        let fd = clients[index].fd
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        guard count > 0 else { throw BenchError.unexpected("connection \(index) ended: \(count == 0 ? "end of input" : String(cString: strerror(errno)))") }
        clients[index].input.append(contentsOf: buffer[..<count])
        var start = 0
        let input = clients[index].input
        while let end = input[start...].firstIndex(of: 0x0A) {
            try handle(input[start..<end], from: index)
            start = end + 1
        }
        clients[index].input.removeFirst(start)
    }

    private static let answerPrefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8)

    /// One line from the server: an answer (a key's latency), or the form's news.
    private mutating func handle(_ line: ArraySlice<UInt8>, from index: Int) throws {
        if line.starts(with: Self.answerPrefix) {
            var id = 0
            for byte in line.dropFirst(Self.answerPrefix.count) {
                guard byte >= 0x30 && byte <= 0x39 else { break }
                id = id * 10 + Int(byte - 0x30)
            }
            let client = clients[index]
            guard id >= 1 && id <= client.sentAt.count else { throw BenchError.unexpected("an answer to no request: id \(id)") }
            if id == 2 { clients[index].isOpen = true }
            // Ids 3 on are the keys, until the submission.
            if id >= 3 && id < 3 + client.name.count + 2 {
                let latency = now() - client.sentAt[id - 1]
                if client.sentDuringBurst[id - 1] { duringBursts.append(latency) } else { outsideBursts.append(latency) }
            }
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        if text.contains(#""method":"form.submitEnabledChanged""#) {
            clients[index].submitEnabled = text.contains(#""enabled":true"#)
            try submitIfReady(index)
        } else if text.contains(#""method":"form.submissionChanged""#) {
            if text.contains(#""state":"succeeded""#) || text.contains(#""state":"failed""#) {
                guard clients[index].outcome == nil else { return }
                clients[index].outcome = text.contains(#""state":"succeeded""#)
                registrationsInFlight -= 1
            }
        }
    }
}
