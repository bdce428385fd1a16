/// Cuts stdin into messages by the framing in use: one per line (`LineSplitter`), or LSP's base
/// protocol (`LSPFrameReader`). With `auto` the first bytes decide: a stream that starts with a
/// `Content-Length` header (after an optional byte-order mark) is LSP, any other is lines.
struct InputFramer {
    /// The framing in use; nil under `auto` until enough bytes have come to tell.
    private var framing: Framing?
    /// Bytes held while the framing is undecided.
    private var held: [UInt8] = []
    // Both kept in place (not inside an enum), so feeding one changes it without a copy.
    private var lines: LineSplitter
    private var frames: LSPFrameReader
    private let choice: FramingChoice

    init(choice: FramingChoice, maxLineBytes: Int, editsMaxDepth: Int? = nil, fieldNames: KnownFieldNames = KnownFieldNames()) {
        self.choice = choice
        lines = LineSplitter(maxLineBytes: maxLineBytes, editsMaxDepth: editsMaxDepth, fieldNames: fieldNames)
        frames = LSPFrameReader(maxLineBytes: maxLineBytes, editsMaxDepth: editsMaxDepth, fieldNames: fieldNames)
        let current = choice.current
        framing = current == .auto ? nil : current
    }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [InputItem]) {
        switch framing {
        case .lines?, .auto?: lines.feed(chunk, into: &items)
        case .lsp?: frames.feed(chunk, into: &items)
        case nil:
            held.append(contentsOf: chunk)
            guard let decided = Self.framing(startingWith: held) else { return }
            decide(decided, into: &items)
        }
    }

    mutating func finish(into items: inout [InputItem]) {
        if framing == nil { decide(.lines, into: &items) }
        switch framing {
        case .lsp?: frames.finish(into: &items)
        default: lines.finish(into: &items)
        }
    }

    /// Settles the framing and feeds what was held to its reader.
    private mutating func decide(_ decided: Framing, into items: inout [InputItem]) {
        choice.decide(decided)
        framing = decided
        var bytes = held
        held = []
        // LSP's reader knows nothing of byte-order marks; the line splitter skips its own.
        if decided == .lsp && bytes.starts(with: Self.byteOrderMark) { bytes.removeFirst(3) }
        bytes.withUnsafeBufferPointer { feed($0, into: &items) }
    }

    private static let header = Array("content-length:".utf8)
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The framing the first bytes show, or nil while they could still start either.
    static func framing(startingWith bytes: [UInt8]) -> Framing? {
        var start = bytes[...]
        if start.starts(with: byteOrderMark) {
            start = start.dropFirst(3)
        } else if byteOrderMark.starts(with: start) {
            return nil
        }
        let lowered = start.prefix(header.count).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        guard lowered.elementsEqual(header.prefix(lowered.count)) else { return .lines }
        return lowered.count == header.count ? .lsp : nil
    }
}
