/// Where `--listen` takes connections: a Unix-domain socket's path, or a TCP host and port.
package enum ListenAddress: Equatable, CustomStringConvertible {
    case unix(path: String)
    case tcp(host: String, port: UInt16)

    /// `unix:PATH`, `tcp:HOST:PORT` or `tcp:[IPV6]:PORT`; port 0 takes any free port.
    package init(parsing text: String) throws(UsageError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            // sockaddr_un holds 108 bytes, the last a NUL.
            guard !path.isEmpty, path.utf8.count < 108 else {
                throw UsageError(description: "--listen unix: needs a path of 1 to 107 bytes, not '\(path)'")
            }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp:"), let colon = text.lastIndex(of: ":"), colon > text.index(text.startIndex, offsetBy: 3) else {
            throw UsageError(description: "--listen takes unix:PATH or tcp:HOST:PORT, not '\(text)'")
        }
        var host = String(text[text.index(text.startIndex, offsetBy: 4)..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let portText = text[text.index(after: colon)...]
        guard !host.isEmpty, let port = UInt16(portText) else {
            throw UsageError(description: "--listen tcp: needs a host and a port from 0 to 65535, not '\(text)'")
        }
        self = .tcp(host: host, port: port)
    }

    package var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }
}
