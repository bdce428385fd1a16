import Foundation

/// How messages are cut on stdin and stdout: one per line, or LSP's base protocol
/// (`Content-Length: N\r\n\r\n` and N bytes). `auto` takes whichever the client's first bytes use.
enum Framing: String, CaseIterable, Sendable {
    case auto, lines, lsp
}

/// The framing in use once the input has shown it, shared by the reader, which decides, and the
/// writer, which frames every message alike. Nothing is written before the first message is
/// read, and the hand-over through the event loop orders the decision before any write.
final class FramingChoice: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var choice: Framing

    init(_ framing: Framing) {
        choice = framing
    }

    /// The framing decided, or `auto` while no input has decided it.
    var current: Framing { lock.withLock { choice } }

    /// Settles `auto` on what the input uses; a forced framing stays as it is.
    func decide(_ framing: Framing) {
        lock.withLock { if choice == .auto { choice = framing } }
    }
}
