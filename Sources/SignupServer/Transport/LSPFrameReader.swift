/// Cuts a byte stream framed as LSP's base protocol into messages: header lines ending in
/// `\r\n`, a blank line, then exactly `Content-Length` bytes. Other headers (`Content-Type`) are
/// read past. Like `LineSplitter`, it never holds more than the line limit of one message.
///
/// A header block without a valid `Content-Length` is handed on as a line, so the parser answers
/// it as text that is not JSON (`-32700`), and the next header block is read after it; a body
/// longer than the limit is skipped as it arrives and answered as an oversize line (`-32020`).
struct LSPFrameReader {
    let maxLineBytes: Int
    let editsMaxDepth: Int?
    let fieldNames: KnownFieldNames
    /// The header block read so far, or the body once `bodyLength` is known.
    private var pending: [UInt8] = []
    private var bodyLength: Int?
    /// Body bytes still to skip of a message over the limit.
    private var skipping = 0

    /// The longest header block read: far more than LSP's two headers need.
    static let maxHeaderBytes = 8192

    init(maxLineBytes: Int, editsMaxDepth: Int? = nil, fieldNames: KnownFieldNames = KnownFieldNames()) {
        self.maxLineBytes = maxLineBytes
        self.editsMaxDepth = editsMaxDepth
        self.fieldNames = fieldNames
    }

    /// Cuts the messages `chunk` completes into `items`, keeping plain edits' bodies in `kept` when given.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into items: inout [InputItem], keepingEditsIn kept: KeptEditLines? = nil) {
        var index = 0
        while index < chunk.count {
            if skipping > 0 {
                let count = min(skipping, chunk.count - index)
                skipping -= count
                index += count
            } else if let length = bodyLength {
                if pending.isEmpty && chunk.count - index >= length {
                    // The whole body is in this read: read it where it lies, without copying it.
                    let body = UnsafeBufferPointer(rebasing: chunk[index..<(index + length)])
                    items.append(.line(body, editsMaxDepth: editsMaxDepth, fieldNames: fieldNames, keepingEditsIn: kept))
                    index += length
                    bodyLength = nil
                    continue
                }
                let count = min(length - pending.count, chunk.count - index)
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<(index + count)]))
                index += count
                if pending.count == length {
                    items.append(pending.withUnsafeBufferPointer { .line($0, editsMaxDepth: editsMaxDepth, fieldNames: fieldNames, keepingEditsIn: kept) })
                    pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
                    bodyLength = nil
                }
            } else {
                // Line ends between messages are read past, as lenient LSP servers do.
                if pending.isEmpty && (chunk[index] == 0x0D || chunk[index] == 0x0A) {
                    index += 1
                    continue
                }
                // A header line at a time, up to and including its `\n`.
                let end = chunk[index...].firstIndex(of: 0x0A).map { $0 + 1 } ?? chunk.count
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<end]))
                index = end
                if pending.count >= 4, pending.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) {
                    endHeader(into: &items)
                } else if pending.count > Self.maxHeaderBytes {
                    items.append(.oversizeLine)
                    pending.removeAll()
                }
            }
        }
    }

    /// Ends the stream: a message cut off is handed on as it is, for the parser to answer.
    mutating func finish(into items: inout [InputItem]) {
        if !pending.isEmpty && !pending.allSatisfy(\.isJSONWhitespace) {
            items.append(pending.withUnsafeBufferPointer { .line($0, editsMaxDepth: nil) })
        }
        pending = []
        bodyLength = nil
        skipping = 0
    }

    private mutating func endHeader(into items: inout [InputItem]) {
        let length = Self.contentLength(in: pending.dropLast(4))
        guard let length else {
            items.append(pending.withUnsafeBufferPointer { .line($0, editsMaxDepth: nil) })
            pending.removeAll()
            return
        }
        pending.removeAll()
        if length > maxLineBytes {
            items.append(.oversizeLine)
            skipping = length
        } else if length == 0 {
            items.append(.line([]))
        } else {
            bodyLength = length
        }
    }

    /// The value of the one `Content-Length` header (names compared without case), or nil when
    /// it is missing, given twice, or not a whole number that fits.
    static func contentLength(in header: ArraySlice<UInt8>) -> Int? {
        var length: Int?
        for line in header.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = line.last == 0x0D ? line.dropLast() : line
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard name.lowercased() == "content-length" else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
            let digits = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            guard length == nil, !digits.isEmpty, digits.count <= 18,
                  digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            length = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        return length
    }
}
