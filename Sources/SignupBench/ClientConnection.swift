import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One client's connection for figure 7, read and written line by line: plain TCP to
/// `signup-rpc --listen`, or a WebSocket through websocketd (a text message a line; the
/// handshake and RFC 6455's framing written here, masked as a client must).
final class ClientConnection {
    private let fd: Int32
    private let isWebSocket: Bool
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 14)

    init(port: UInt16, webSocket: Bool) throws {
        fd = try Loopback.connect(port: port)
        isWebSocket = webSocket
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        if webSocket { try handshake(port: port) }
    }

    deinit { close(fd) }

    /// Whether something listens on the loopback `port`.
    static func canConnect(port: UInt16) -> Bool {
        (try? ClientConnection(port: port, webSocket: false)) != nil
    }

    func send(_ line: String) throws {
        var bytes = Array(line.utf8)
        if isWebSocket {
            bytes = Self.frame(bytes)
        } else {
            bytes.append(0x0A)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw BenchError.system("send", errno) }
            offset += written
        }
    }

    /// The next line (a text message's whole text, through websocketd); nil at the end.
    func readLine() throws -> String? {
        if isWebSocket { return try readMessage() }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            guard try fill() else { return nil }
        }
    }

    private func fill() throws -> Bool {
        let count = read(fd, &chunk, chunk.count)
        if count < 0 && errno == EINTR { return true }
        guard count >= 0 else { throw BenchError.system("read", errno) }
        buffer.append(contentsOf: chunk[0..<count])
        return count > 0
    }

    private func take(_ count: Int) throws -> ArraySlice<UInt8>? {
        while buffer.count < count {
            guard try fill() else { return nil }
        }
        defer { buffer.removeSubrange(..<count) }
        return buffer[..<count]
    }

    private func handshake(port: UInt16) throws {
        try sendRaw("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: c2lnbnVwLWJlbmNoLWtleQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let end = Array("\r\n\r\n".utf8)
        while buffer.firstRange(of: end) == nil {
            guard try fill() else { throw BenchError.unexpected("websocketd closed the connection in the handshake") }
        }
        let headers = buffer.firstRange(of: end)!
        let status = String(decoding: buffer[..<headers.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<headers.upperBound)
        guard status.hasPrefix("HTTP/1.1 101") else { throw BenchError.unexpected("websocketd answered: \(status)") }
    }

    private func sendRaw(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw BenchError.system("send", errno)
        }
    }

    /// A final text frame, masked.
    private static func frame(_ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x2E]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    /// The next text message; control frames are read past, the close frame ends it.
    private func readMessage() throws -> String? {
        while true {
            guard let head = try take(2) else { return nil }
            let opcode = head[head.startIndex] & 0x0F
            var length = Int(head[head.startIndex + 1] & 0x7F)
            if length == 126 {
                guard let extended = try take(2) else { return nil }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127 {
                guard let extended = try take(8) else { return nil }
                length = extended.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = try take(length) else { return nil }
            switch opcode {
            case 0x1, 0x2: return String(decoding: payload, as: UTF8.self)
            case 0x8: return nil
            default: continue
            }
        }
    }
}
