/// Cuts a byte stream framed as LSP's base protocol into messages: header lines ending in
/// `\r\n`, a blank line, then exactly `Content-Length` bytes. Other headers (`Content-Type`) are
/// read past. Like `LineSplitter`, it never holds more than the line limit of one message.
///
/// A header block without a valid `Content-Length` is handed on as a line, so the parser answers
/// it as text that is not JSON (`-32700`), and the next header block is read after it; a body
/// longer than the limit is skipped as it arrives and answered as an oversize line (`-32020`); a
/// header block over `maxHeaderBytes` is answered once as one and read past with its body; and a
/// line starting with `{` or `[` where a header block would start is a JSON text served as a line.
struct LSPFrameReader {
    let maxLineBytes: Int
    /// The header block read so far, or the body once `bodyLength` is known.
    private var pending: [UInt8] = []
    private var bodyLength: Int?
    /// Body bytes still to skip of a message over the limit.
    private var skipping = 0
    /// Whether the rest of a JSON line over the line limit is being skipped.
    private var skippingLine = false
    /// What is known of a header block over `maxHeaderBytes` being read past.
    private var headerOverflow: HeaderOverflow?

    /// The longest header block read: far more than LSP's two headers need.
    static let maxHeaderBytes = 8192

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Hands the messages `chunk` completes to `receiver`.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into receiver: inout some MessageReceiver) {
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
                    receiver.receive(body)
                    index += length
                    bodyLength = nil
                    continue
                }
                let count = min(length - pending.count, chunk.count - index)
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<(index + count)]))
                index += count
                if pending.count == length {
                    pending.withUnsafeBufferPointer { receiver.receive($0) }
                    pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
                    bodyLength = nil
                }
            } else if skippingLine {
                let end = chunk.firstLineFeed(from: index)
                index = end.map { $0 + 1 } ?? chunk.count
                skippingLine = end == nil
            } else if let overflow = headerOverflow {
                index = readPast(overflow, in: chunk, from: index, into: &receiver)
            } else {
                // Line ends between messages are read past, as lenient LSP servers do.
                if pending.isEmpty && (chunk[index] == 0x0D || chunk[index] == 0x0A) {
                    index += 1
                    continue
                }
                // A header line at a time, up to and including its `\n`.
                let end = chunk.firstLineFeed(from: index).map { $0 + 1 } ?? chunk.count
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<end]))
                index = end
                if pending.first == UInt8(ascii: "{") || pending.first == UInt8(ascii: "[") {
                    // A JSON text written as a line where a header block would start is served as one.
                    if pending.last == 0x0A {
                        let line = pending.dropLast(Self.ends(pending, with: Self.lineEnd) ? 2 : 1)
                        if line.count > maxLineBytes {
                            receiver.receiveOversize()
                        } else {
                            line.withUnsafeBufferPointer { receiver.receive($0) }
                        }
                        pending.removeAll()
                    } else if pending.count > maxLineBytes {
                        receiver.receiveOversize()
                        pending.removeAll()
                        skippingLine = true
                    }
                } else if Self.ends(pending, with: Self.headerEnd) {
                    endHeader(into: &receiver)
                } else if pending.count > Self.maxHeaderBytes {
                    // Answered once, then read past to its blank line, what was read of it first;
                    // its body, when one valid `Content-Length` is found on the way, is skipped too.
                    receiver.receiveOversize()
                    let held = pending
                    pending.removeAll()
                    _ = held.withUnsafeBufferPointer { readPast(HeaderOverflow(), in: $0, from: 0, into: &receiver) }
                }
            }
        }
    }

    /// Reads past the rest of a header block over the limit; returns where reading goes on.
    private mutating func readPast(_ overflow: HeaderOverflow, in chunk: UnsafeBufferPointer<UInt8>, from start: Int,
                                  into receiver: inout some MessageReceiver) -> Int {
        var overflow = overflow
        var index = start
        while index < chunk.count {
            let end = chunk.firstLineFeed(from: index)
            overflow.take(partial: Array(chunk[index..<(end ?? chunk.count)].prefix(HeaderOverflow.kept)))
            guard let end else { headerOverflow = overflow; return chunk.count }
            index = end + 1
            if overflow.endLine() {
                headerOverflow = nil
                if let length = overflow.contentLength, length > 0 { skipping = length }
                return index
            }
        }
        headerOverflow = overflow
        return index
    }

    /// Ends the stream: a message cut off is handed on as it is, for the parser to answer; a
    /// body cut off before its first byte too (`-32700` at offset 0, as for one cut later).
    mutating func finish(into receiver: inout some MessageReceiver) {
        if bodyLength != nil || (!pending.isEmpty && !pending.allSatisfy(\.isBlank)) {
            pending.withUnsafeBufferPointer { receiver.receive($0) }
        }
        pending = []
        bodyLength = nil
        skipping = 0
        skippingLine = false
        headerOverflow = nil
    }

    private mutating func endHeader(into receiver: inout some MessageReceiver) {
        let length = Self.contentLength(in: pending.dropLast(4))
        guard let length else {
            pending.withUnsafeBufferPointer { receiver.receive($0) }
            pending.removeAll()
            return
        }
        pending.removeAll()
        if length > maxLineBytes {
            receiver.receiveOversize()
            skipping = length
        } else if length == 0 {
            receiver.receive(UnsafeBufferPointer(start: nil, count: 0))
        } else {
            bodyLength = length
        }
    }

    /// The value of the one `Content-Length` header (names compared without case), or nil when
    /// it is missing, given twice, or not a whole number that fits; nil too when a line has no
    /// colon. Lines end in `\n`, a `\r` before it read past.
    static func contentLength(in header: ArraySlice<UInt8>) -> Int? {
        header.withUnsafeBufferPointer(contentLength(in:))
    }

    private static func contentLength(in header: UnsafeBufferPointer<UInt8>) -> Int? {
        var length: Int?
        var lineStart = 0
        while true {
            let lineEnd = header.firstLineFeed(from: lineStart) ?? header.count
            let contentEnd = lineEnd > lineStart && header[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
            var colon = lineStart
            while colon < contentEnd && header[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon < contentEnd else { return nil }
            if isContentLength(name: UnsafeBufferPointer(rebasing: header[lineStart..<colon])) {
                var first = colon + 1, last = contentEnd
                while first < last && (header[first] == 0x20 || header[first] == 0x09) { first += 1 }
                while last > first && (header[last - 1] == 0x20 || header[last - 1] == 0x09) { last -= 1 }
                guard length == nil, first < last, last - first <= 18 else { return nil }
                var value = 0
                for digit in header[first..<last] {
                    guard digit >= 0x30 && digit <= 0x39 else { return nil }
                    value = value * 10 + Int(digit - 0x30)
                }
                length = value
            }
            guard lineEnd < header.count else { return length }
            lineStart = lineEnd + 1
        }
    }

    /// Whether `name` is `Content-Length` in any case. ASCII only: no other character lowercases
    /// to one of its letters, so this is what comparing the lowercased text would say.
    static func isContentLength(name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == contentLengthName.count else { return false }
        var offset = 0
        for byte in name {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == contentLengthName[offset] else { return false }
            offset += 1
        }
        return true
    }

    private static let contentLengthName: [UInt8] = Array("content-length".utf8)

    private static let lineEnd: [UInt8] = [0x0D, 0x0A]
    private static let headerEnd: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    /// Whether `bytes` ends in `tail`.
    private static func ends(_ bytes: [UInt8], with tail: [UInt8]) -> Bool {
        guard bytes.count >= tail.count else { return false }
        let start = bytes.count - tail.count
        for offset in tail.indices where bytes[start + offset] != tail[offset] { return false }
        return true
    }
}

/// A header block over the limit as it is read past: the start of the line being read, and
/// the `Content-Length` of the lines read so far.
private struct HeaderOverflow {
    /// How much of each line is kept: enough for any `Content-Length` header this reader takes.
    static let kept = 64
    private var line: [UInt8] = []
    private var lengths: [Int?] = []

    /// The block's one valid `Content-Length`, nil when it had none or more than one.
    var contentLength: Int? {
        lengths.count == 1 ? lengths[0] : nil
    }

    /// More of the current line (without its `\n`), of which the first `kept` bytes are kept.
    mutating func take(partial bytes: [UInt8]) {
        line += bytes.prefix(max(0, Self.kept + 1 - line.count))
    }

    /// Ends the current line; true when it was the blank line (`\r\n`) that ends the block.
    mutating func endLine() -> Bool {
        defer { line.removeAll() }
        if line == [0x0D] { return true }
        let text = line.count > Self.kept ? [] : line
        let name = text.prefix { $0 != UInt8(ascii: ":") }
        if name.withUnsafeBufferPointer(LSPFrameReader.isContentLength(name:)) {
            lengths.append(LSPFrameReader.contentLength(in: text[...]))
        }
        return false
    }
}
