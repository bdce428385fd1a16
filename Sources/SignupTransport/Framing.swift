import Synchronization

/// How messages are cut on stdin and stdout: one per line, or LSP's base protocol
/// (`Content-Length: N\r\n\r\n` and N bytes). `auto` takes whichever the client's first bytes use.
package enum Framing: String, CaseIterable, Sendable {
    case auto, lines, lsp
}

/// The framing in use once the input has shown it, shared by the reader, which decides, and the
/// writer, which frames every message alike. Nothing is written before the first message is
/// read, and the hand-over through the event loop orders the decision before any write.
/// Atomic rather than locked: the writer reads it on every write.
package final class FramingChoice: Sendable {
    private let choice: Atomic<Int>
    private static let framings = Framing.allCases

    package init(_ framing: Framing) {
        choice = Atomic(Self.framings.firstIndex(of: framing) ?? 0)
    }

    /// The framing decided, or `auto` while no input has decided it.
    package var current: Framing { Self.framings[choice.load(ordering: .acquiring)] }

    /// Settles `auto` on what the input uses; a forced framing stays as it is.
    func decide(_ framing: Framing) {
        let auto = Self.framings.firstIndex(of: .auto) ?? 0
        _ = choice.compareExchange(
            expected: auto, desired: Self.framings.firstIndex(of: framing) ?? auto,
            successOrdering: .releasing, failureOrdering: .relaxed)
    }
}
