import Foundation
import Synchronization
import SignupProtocol

/// A listening socket (`--listen`) and the thread that accepts its connections.
final class Listener: Sendable {
    /// The address as bound: a TCP port of 0 replaced by the one the system chose.
    let address: ListenAddress
    private let fd: Int32
    private let isClosed = Atomic<Bool>(false)

    /// Why a socket cannot listen; exits 69 (EX_UNAVAILABLE).
    package struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Binds and listens at `address`. A Unix socket file that no process listens on any more (left
    /// by one that was killed) is replaced; one that a process still listens on is not.
    init(_ address: ListenAddress) throws(Problem) {
        switch address {
        case .unix(let path):
            fd = try Self.bindUnix(path)
            self.address = address
        case .tcp(let host, let port):
            (fd, self.address) = try Self.bindTCP(host: host, port: port)
        }
        guard listen(fd, 4096) == 0 else { throw Problem(description: "cannot listen on \(address): \(Self.lastError)") }
    }

    /// Accepts connections on a thread of its own, numbering them from 1, until `close()`.
    /// `handler` owns each descriptor it is given.
    func acceptConnections(_ handler: @escaping @Sendable (_ fd: Int32, _ number: Int) -> Void) {
        let isTCP = if case .tcp = address { true } else { false }
        let thread = Thread { [self] in
            var number = 0
            var failuresInARow = 0
            while !isClosed.load(ordering: .acquiring) {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else {
                    failuresInARow += 1
                    if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                        // Out of descriptors: the ones of connections ending free some.
                        usleep(50_000)
                    } else if errno != EINTR && errno != ECONNABORTED && failuresInARow > 1 {
                        // An error that comes again at once waits a while, so that one that
                        // persists costs a wake-up every 10 ms, not a core.
                        usleep(10_000)
                    }
                    continue
                }
                failuresInARow = 0
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                if isTCP {
                    // A keystroke's answer is one small write, sent at once rather than coalesced.
                    var on: Int32 = 1
                    setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                }
                number += 1
                handler(connection, number)
            }
        }
        thread.name = "signup-rpc.accept"
        thread.start()
    }

    /// Takes no more connections: wakes the accepting thread, which ends.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Removes a Unix socket's file, as the process ends.
    func removeSocketFile() {
        if case .unix(let path) = address { unlink(path) }
    }

    private static var lastError: String { String(cString: strerror(errno)) }

    private static func bindUnix(_ path: String) throws(Problem) -> Int32 {
        func attempt() throws(Problem) -> (fd: Int32, error: Int32) {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Problem(description: "cannot make a socket: \(lastError)") }
            let result = withUnixAddress(path) { bind(fd, $0, $1) }
            if result == 0 { return (fd, 0) }
            let error = errno
            Glibc.close(fd)
            return (-1, error)
        }
        var (fd, error) = try attempt()
        if error == EADDRINUSE && !isListenedOn(path) {
            unlink(path)
            (fd, error) = try attempt()
        }
        guard fd >= 0 else {
            throw Problem(description: "cannot listen on unix:\(path): \(String(cString: strerror(error)))"
                + (error == EADDRINUSE ? " (another process listens there)" : ""))
        }
        return fd
    }

    /// Whether a process accepts connections on the Unix socket at `path`.
    private static func isListenedOn(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        return withUnixAddress(path) { connect(fd, $0, $1) } == 0
    }

    private static func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    private static func bindTCP(host: String, port: UInt16) throws(Problem) -> (Int32, ListenAddress) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw Problem(description: "cannot listen on tcp:\(host):\(port): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }
        var error: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { error = errno; continue }
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                return (fd, .tcp(host: host, port: boundPort(fd) ?? port))
            }
            error = errno
            Glibc.close(fd)
        }
        throw Problem(description: "cannot listen on tcp:\(host):\(port): \(String(cString: strerror(error)))")
    }

    /// The port a TCP socket is bound to.
    private static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }
}
