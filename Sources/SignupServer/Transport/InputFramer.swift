import SignupProtocol

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

    package init(choice: FramingChoice, maxLineBytes: Int, decoder: MessageDecoder = .generic) {
        self.choice = choice
        lines = LineSplitter(maxLineBytes: maxLineBytes, decoder: decoder)
        frames = LSPFrameReader(maxLineBytes: maxLineBytes, decoder: decoder)
        switch choice.current {
        case .lines: reader = .lines
        case .lsp: reader = .lsp
        case .auto: reader = nil
        }
    }

    /// Cuts the messages `chunk` completes into `items`, keeping plain edits' lines in `kept` when
    /// given (for a recording).
    package mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [InputItem], keepingEditsIn kept: KeptEditLines? = nil) {
        switch reader {
        case .lines?: lines.feed(chunk, into: &items, keepingEditsIn: kept)
        case .lsp?: frames.feed(chunk, into: &items, keepingEditsIn: kept)
        case nil:
            held.append(contentsOf: chunk)
            guard let decided = Self.framing(startingWith: held) else { return }
            decide(decided, into: &items, keepingEditsIn: kept)
        }
    }

    package mutating func finish(into items: inout [InputItem], keepingEditsIn kept: KeptEditLines? = nil) {
        if reader == nil { decide(.lines, into: &items, keepingEditsIn: kept) }
        switch reader {
        case .lsp?: frames.finish(into: &items)
        case .lines?, nil: lines.finish(into: &items, keepingEditsIn: kept)
        }
    }

    /// Settles the framing and feeds what was held to its reader.
    private mutating func decide(_ decided: Framing, into items: inout [InputItem], keepingEditsIn kept: KeptEditLines?) {
        choice.decide(decided)
        reader = decided == .lsp ? .lsp : .lines
        var bytes = held
        held = []
        // LSP's reader knows nothing of byte-order marks; the line splitter skips its own.
        if decided == .lsp && bytes.starts(with: LineSplitter.byteOrderMark) { bytes.removeFirst(3) }
        bytes.withUnsafeBufferPointer { feed($0, into: &items, keepingEditsIn: kept) }
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
