import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client of `signup-rpc --listen`: one connection over a Unix socket or TCP, written and read
/// line by line (or LSP frame by frame). Every read waits on the socket for at most `timeout`
/// seconds, so a server that never answers fails the test rather than stalling it.
final class SocketClient: LineReading {
    let fd: Int32
    private var buffer = LineBuffer()
    var timeout: Double = 20

    struct CannotConnect: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `address`, `unix:PATH` or `tcp:HOST:PORT`.
    init(_ address: String) throws {
        if address.hasPrefix("unix:") {
            let path = String(address.dropFirst(5))
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var storage = sockaddr_un()
            storage.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &storage.sun_path) { bytes in
                for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
            }
            let result = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard result == 0 else { throw CannotConnect(description: "\(address): \(String(cString: strerror(errno)))") }
        } else {
            let parts = address.dropFirst(4).split(separator: ":")
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = UInt16(parts[1])!.bigEndian
            inet_pton(AF_INET, String(parts[0]), &storage.sin_addr)
            let result = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else { throw CannotConnect(description: "\(address): \(String(cString: strerror(errno)))") }
        }
    }

    deinit { close(fd) }

    /// Writes lines, each followed by a newline; false once the server has closed the connection.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        send(raw: Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Writes each message with LSP's `Content-Length` header.
    @discardableResult
    func sendFramed(_ messages: [String]) -> Bool {
        send(raw: Array(messages.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined().utf8))
    }

    @discardableResult
    func send(raw bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Writes what the socket takes now without waiting; the number of bytes taken.
    func sendWithoutWaiting(_ line: String) -> Int {
        let bytes = Array((line + "\n").utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Whether the socket takes more bytes within `seconds`.
    func waitUntilWritable(atMost seconds: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, Int32(seconds * 1000)) == 1 && descriptor.revents & Int16(POLLOUT) != 0
    }

    /// The next line, or nil at the end of the connection or after `timeout` seconds of silence.
    func readLine() -> String? {
        buffer.nextLine { fill() }
    }

    /// The next LSP frame's body, or nil at the end or after `timeout` seconds of silence.
    func readFrame() -> String? {
        while true {
            if let end = buffer.bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                let header = String(decoding: buffer.bytes[..<end.lowerBound], as: UTF8.self)
                guard let length = Int(header.replacingOccurrences(of: "Content-Length: ", with: "")) else { return nil }
                if buffer.bytes.count >= end.upperBound + length {
                    let body = String(decoding: buffer.bytes[end.upperBound..<end.upperBound + length], as: UTF8.self)
                    buffer.bytes.removeSubrange(..<(end.upperBound + length))
                    return body
                }
            }
            guard let more = fill() else { return nil }
            buffer.bytes += more
        }
    }

    /// Every line to the end of the connection (nil if it has not ended within `timeout`).
    func readToEnd() -> [String]? {
        var lines: [String] = []
        while true {
            if let line = readLine() {
                lines.append(line)
                continue
            }
            return isAtEnd ? lines : nil
        }
    }

    /// Whether the server has closed the connection.
    private(set) var isAtEnd = false

    /// Ends what this client sends; the server sees the end of its input.
    func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// What the socket gives within `timeout`, or nil (at its end, `isAtEnd` is set).
    private func fill() -> [UInt8]? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else {
            isAtEnd = true
            return nil
        }
        return Array(chunk[0..<count])
    }
}
