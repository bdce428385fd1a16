#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps stdout for protocol messages only, as sourcekit-lsp does: messages go to a private
/// duplicate of the real stdout, and descriptor 1 is pointed at stderr so a stray `print`
/// lands in the diagnostics instead of corrupting the stream.
enum StdoutGuard {
    /// Returns the private descriptor for messages.
    static func takeOverStdout() -> Int32 {
        let messages = dup(STDOUT_FILENO)
        guard messages >= 0 else { return STDOUT_FILENO }
        _ = fcntl(messages, F_SETFD, FD_CLOEXEC)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return messages
    }

    /// Makes a vanished reader an EPIPE error instead of a fatal signal.
    static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }
}
