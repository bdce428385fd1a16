
/// Cuts stdin into messages by the framing in use: one per line (`LineSplitter`), or LSP's base
/// protocol (`LSPFrameReader`). With `auto` the first bytes decide: a stream that starts with a
/// `Content-Length` header (after an optional byte-order mark) is LSP, any other is lines.
package struct InputFramer {
    /// The reader in use; nil under `auto` until enough bytes have come to tell.
    private var reader: Reader?
    private enum Reader { case lines, lsp }
    /// Bytes held while the framing is undecided.
    private var held: [UInt8] = []
    // Both kept in place (not inside an enum), so feeding one changes it without a copy.
    private var lines: LineSplitter
    private var frames: LSPFrameReader
    private let choice: FramingChoice

    package init(choice: FramingChoice, maxLineBytes: Int) {
        self.choice = choice
        lines = LineSplitter(maxLineBytes: maxLineBytes)
        frames = LSPFrameReader(maxLineBytes: maxLineBytes)
        switch choice.current {
        case .lines: reader = .lines
        case .lsp: reader = .lsp
        case .auto: reader = nil
        }
    }

    /// Hands the messages `chunk` completes to `receiver`.
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into receiver: inout some MessageReceiver) {
        switch reader {
        case .lines?: lines.feed(chunk, into: &receiver)
        case .lsp?: frames.feed(chunk, into: &receiver)
        case nil:
            held.append(contentsOf: chunk)
            guard let decided = Self.framing(startingWith: held) else { return }
            decide(decided, into: &receiver)
        }
    }

    /// Ends the stream, handing `receiver` what is left.
    package mutating func finish(into receiver: inout some MessageReceiver) {
        if reader == nil { decide(.lines, into: &receiver) }
        switch reader {
        case .lsp?: frames.finish(into: &receiver)
        case .lines?, nil: lines.finish(into: &receiver)
        }
    }

    /// Settles the framing and feeds what was held to its reader.
    private mutating func decide(_ decided: Framing, into receiver: inout some MessageReceiver) {
        choice.decide(decided)
        reader = decided == .lsp ? .lsp : .lines
        var bytes = held
        held = []
        // LSP's reader knows nothing of byte-order marks; the line splitter skips its own.
        if decided == .lsp && bytes.starts(with: LineSplitter.byteOrderMark) { bytes.removeFirst(3) }
        bytes.withUnsafeBufferPointer { feed($0, into: &receiver) }
    }

    private static let header = Array("content-length:".utf8)

    /// The framing the first bytes show, or nil while they could still start either.
    package static func framing(startingWith bytes: [UInt8]) -> Framing? {
        var start = bytes[...]
        if start.starts(with: LineSplitter.byteOrderMark) {
            start = start.dropFirst(3)
        } else if LineSplitter.byteOrderMark.starts(with: start) {
            return nil
        }
        let lowered = start.prefix(header.count).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard lowered.elementsEqual(header.prefix(lowered.count)) else { return .lines }
        return lowered.count == header.count ? .lsp : nil
    }
}
