import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `signup-rpc --listen` as a live child, with the address it reports on stderr (a TCP port of 0
/// replaced by the one it took).
final class ListeningServer {
    let process: InteractiveProcess
    let address: String

    struct NotListening: Error, CustomStringConvertible {
        var description: String
    }

    init(_ listen: String, _ arguments: [String] = []) throws {
        process = try InteractiveProcess(["--listen", listen] + arguments)
        let prefix = "signup-rpc: listening on "
        guard let line = process.readErrorLine(), line.hasPrefix(prefix) else {
            process.killHard()
            throw NotListening(description: "the server did not start listening: \(process.errorOutput())")
        }
        address = String(line.dropFirst(prefix.count))
    }

    func connect() throws -> SocketClient {
        try SocketClient(address)
    }

    /// Sends SIGTERM and returns the exit status (nil if the server still runs after 30 s; it is
    /// then killed).
    func terminate() -> Int32? {
        process.send(signal: SIGTERM)
        return process.wait(atMost: 30)
    }

    /// A server a test left running is killed (only the process this test started).
    deinit {
        _ = process.wait(atMost: 0)
    }
}

/// A message with its real-clock `at` taken out, to compare with the exact message expected.
func withoutTime(_ line: String) -> String {
    line.replacingOccurrences(of: #","at":[0-9]+"#, with: "", options: .regularExpression)
}
