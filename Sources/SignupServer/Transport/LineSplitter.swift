/// One unit of input for the server.
enum InputItem: Sendable {
    /// A complete line without its `\n` (and without a `\r` before it).
    case line([UInt8])
    /// A complete line that was a `form.edit` request of the plain shape, already read.
    case edit(FormEditLine)
    /// A line longer than the limit; its bytes were skipped, never buffered.
    case oversizeLine
    /// Bytes after the last `\n` when the input ended.
    case truncatedLine

    /// A complete line as the server takes it: already read when it is a `form.edit` of the
    /// plain shape and `editsMaxDepth` is given, otherwise its bytes, for the full parser.
    static func line(_ bytes: [UInt8], editsMaxDepth: Int?) -> InputItem {
        if let maxDepth = editsMaxDepth,
           let edit = bytes.withUnsafeBufferPointer({ FormEditLine.read($0, maxDepth: maxDepth) }) {
            return .edit(edit)
        }
        return .line(bytes)
    }
}

/// Cuts a byte stream into lines. Skips a byte-order mark at the very start and blank lines, and
/// never holds more than `maxLineBytes` of one line: the rest of a longer line is discarded as it
/// arrives, so a 100 MB line costs no more memory than a short one.
///
/// Given `editsMaxDepth`, it also reads each `form.edit` line of the plain shape (`FormEditLine`)
/// as it is cut, so that work happens on the reading thread rather than the event loop.
struct LineSplitter {
    let maxLineBytes: Int
    let editsMaxDepth: Int?
    private var pending: [UInt8] = []
    private var discarding = false
    private var atStreamStart = true

    init(maxLineBytes: Int, editsMaxDepth: Int? = nil) {
        self.maxLineBytes = maxLineBytes
        self.editsMaxDepth = editsMaxDepth
    }

    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [InputItem]) {
        var start = 0
        while start < chunk.count {
            let rest = UnsafeBufferPointer(rebasing: chunk[start...])
            guard let newline = rest.firstIndex(of: 0x0A) else {
                append(rest)
                return
            }
            append(UnsafeBufferPointer(rebasing: rest[rest.startIndex..<newline]))
            endLine(into: &items)
            start += newline + 1
        }
    }

    /// Ends the stream: bytes left without a newline become a truncated line.
    mutating func finish(into items: inout [InputItem]) {
        if discarding {
            items.append(.oversizeLine)
        } else {
            stripByteOrderMark()
            if !isBlank(pending) { items.append(.truncatedLine) }
        }
        pending = []
        discarding = false
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !discarding, !bytes.isEmpty else { return }
        // A `\r` may still be stripped at the line's end, so allow one byte more than the limit.
        if pending.count + bytes.count > maxLineBytes + 1 {
            discarding = true
            pending = []
            return
        }
        pending.append(contentsOf: bytes)
    }

    private mutating func endLine(into items: inout [InputItem]) {
        defer {
            pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
            discarding = false
        }
        if discarding {
            items.append(.oversizeLine)
            atStreamStart = false
            return
        }
        stripByteOrderMark()
        if pending.last == 0x0D { pending.removeLast() }
        if pending.count > maxLineBytes {
            items.append(.oversizeLine)
            return
        }
        if !isBlank(pending) { items.append(.line(pending, editsMaxDepth: editsMaxDepth)) }
    }

    private mutating func stripByteOrderMark() {
        guard atStreamStart else { return }
        atStreamStart = false
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
    }

    private func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy(\.isJSONWhitespace)
    }
}
