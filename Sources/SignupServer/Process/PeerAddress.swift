#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whose check budget a connection spends (`CheckBudgets`): the peer's address for a TCP client
/// on another machine, so that reconnecting gives no fresh budget. A client on this machine (a
/// bridge such as websockify, or a Unix socket) carries many people's connections, so there each
/// connection is its own client, unless a trusted frontend names the person (`initialize`'s
/// `clientKey`, with `--trust-client-keys`).
enum PeerAddress {
    /// `address:` and the peer's IP address for a remote TCP peer; nil for loopback, a Unix
    /// socket, or a peer that cannot be read.
    static func budgetKey(of fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let read = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard read == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }.sin_addr
            // 127.0.0.0/8.
            guard UInt32(bigEndian: address.s_addr) >> 24 != 127 else { return nil }
            guard inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }.sin6_addr
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            // ::1, and ::ffff:127.x.x.x.
            let loopback = bytes == [UInt8](repeating: 0, count: 15) + [1]
                || (bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] && bytes[12] == 127)
            guard !loopback else { return nil }
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return nil }
        default:
            return nil
        }
        return "address:" + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
