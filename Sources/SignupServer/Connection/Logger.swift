#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much the server says on stderr.
package enum LogLevel: Int, Comparable, CaseIterable {
    case error, warning, info, debug

    package init?(name: String) {
        guard let level = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
        self = level
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Diagnostics on stderr, one line each, never on the protocol stream. Never given secret values.
package struct Logger: Sendable {
    var level: LogLevel

    package func error(_ message: @autoclosure () -> String) { log(.error, message) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message) }
    func info(_ message: @autoclosure () -> String) { log(.info, message) }
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message) }

    private func log(_ messageLevel: LogLevel, _ message: () -> String) {
        guard messageLevel <= level else { return }
        let line = Array("signup-rpc: \(messageLevel): \(message())\n".utf8)
        line.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
