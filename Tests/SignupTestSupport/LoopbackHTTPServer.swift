import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 at a port the OS picks, for testing the HTTP backend against
/// real sockets: it answers, answers slowly, fails, or drops the connection, and notices when a
/// client gives up on a request.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var body: String
        /// By lower-cased name.
        public var headers: [String: String] = [:]
    }

    public enum Reply: Sendable {
        case respond(status: Int, body: String = "", after: Int = 0)
        /// Closes the connection without answering.
        case drop
        /// Sends the status and headers at once, then the body one byte every `every` ms (a slow
        /// trickle), stopping when the client goes away.
        case trickle(status: Int, body: String, every: Int)
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var requestLog: [Request] = []
    private var abortedPaths: [String] = []
    private var isStopped = false
    private let requestArrived = DispatchSemaphore(value: 0)
    private let abortNoticed = DispatchSemaphore(value: 0)
    /// Paths whose connection has been served to its end: answered, dropped or abandoned.
    private var finishedPaths: [String] = []
    private let finishedOne = DispatchSemaphore(value: 0)

    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    public var requests: [Request] { lock.withLock { requestLog } }
    /// Paths of requests whose client closed the connection before the answer was sent.
    public var aborted: [String] { lock.withLock { abortedPaths } }

    /// Blocks until the next request has been read, for at most `seconds`; false if none was.
    @discardableResult
    public func waitForRequest(atMost seconds: Double = 30) -> Bool {
        requestArrived.wait(timeout: .now() + seconds) == .success
    }

    /// Blocks until a client has closed a connection whose answer was still pending, for at most
    /// `seconds`; false if none did.
    @discardableResult
    public func waitForAbort(atMost seconds: Double = 30) -> Bool {
        abortNoticed.wait(timeout: .now() + seconds) == .success
    }

    /// Blocks until a request for `path` has been served to its end (answered, or abandoned by
    /// its client), for at most `seconds`; false if it was not. Only a request the server has read
    /// (`waitForRequest`) is sure to finish: one whose client gave up before sending it never does.
    @discardableResult
    public func waitUntilFinished(_ path: String, atMost seconds: Double = 30) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while !lock.withLock({ finishedPaths.contains(path) }) {
            if finishedOne.wait(timeout: deadline) == .timedOut { return lock.withLock { finishedPaths.contains(path) } }
        }
        return true
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Stops accepting. The listener is closed by the accepting thread as it leaves, never here:
    /// closed here, its descriptor could be given to another test's listener while that thread
    /// was between two accepts, and it would then take that server's connections.
    public func stop() {
        lock.withLock { isStopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            if lock.withLock({ isStopped }) {
                close(connection)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        defer {
            lock.withLock { finishedPaths.append(request.path) }
            finishedOne.signal()
        }
        lock.withLock { requestLog.append(request) }
        requestArrived.signal()
        switch handler(request) {
        case .drop:
            return
        case .respond(let status, let body, let delay):
            if delay > 0, clientGoesAway(connection, within: delay) {
                lock.withLock { abortedPaths.append(request.path) }
                abortNoticed.signal()
                return
            }
            let reason = status == 404 ? "Not Found" : status < 300 ? "OK" : "Status"
            let response = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = Array(response.utf8).withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        case .trickle(let status, let body, let every):
            let head = "HTTP/1.1 \(status) OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
            _ = Array(head.utf8).withUnsafeBufferPointer { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            for var byte in body.utf8 {
                if clientGoesAway(connection, within: every) {
                    lock.withLock { abortedPaths.append(request.path) }
                    abortNoticed.signal()
                    return
                }
                if send(connection, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 { return }
            }
        }
    }

    /// Waits up to `milliseconds`; true as soon as the client closes its end.
    private func clientGoesAway(_ connection: Int32, within milliseconds: Int) -> Bool {
        var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while Date() < deadline {
            let remaining = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            if poll(&descriptor, 1, remaining) > 0 {
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, Int32(MSG_PEEK)) <= 0 { return true }
            }
        }
        return false
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        while headerEnd == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            bytes += buffer[0..<count]
            headerEnd = bytes.indices.dropLast(3).first { bytes[$0..<$0 + 4] == [13, 10, 13, 10] }
        }
        let head = String(decoding: bytes[0..<headerEnd!], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        let contentLength = lines.dropFirst().compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first ?? 0
        var body = Array(bytes[(headerEnd! + 4)...])
        while body.count < contentLength {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { break }
            body += buffer[0..<count]
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return Request(
            method: String(requestLine[0]), path: String(requestLine[1]), body: String(decoding: body, as: UTF8.self), headers: headers)
    }
}
