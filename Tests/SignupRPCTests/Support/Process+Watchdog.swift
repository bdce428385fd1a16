import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Longest a test's child may run. One still running then is killed, so a test reading or
    /// waiting on it fails at its next assertion instead of holding the whole run until CI's limit.
    static let testChildLifetime: Double = 300

    /// Kills this child (only this process, which the test started) if it is still running
    /// `seconds` from now; nothing once it has ended or been released.
    func killIfStillRunning(after seconds: Double = Process.testChildLifetime) {
        let watched = WatchedChild(self)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            guard let process = watched.process, process.isRunning else { return }
            FileHandle.standardError.write(Data("test child \(process.processIdentifier) still running after \(Int(seconds)) s: killed\n".utf8))
            kill(process.processIdentifier, SIGKILL)
        }
    }
}

/// The child a watchdog looks at, held weakly so that a finished test's child is let go.
private final class WatchedChild: @unchecked Sendable {
    weak var process: Process?

    init(_ process: Process) {
        self.process = process
    }
}
