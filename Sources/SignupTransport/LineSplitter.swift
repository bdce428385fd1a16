/// Cuts a byte stream into lines. Skips a byte-order mark at the very start and blank lines, and
/// never holds more than `maxLineBytes` of one line: the rest of a longer line is discarded as it
/// arrives, so a 100 MB line costs no more memory than a short one.
///
/// Each line is handed to the receiver as it is cut, where it lies in the read when it can be.
struct LineSplitter {
    let maxLineBytes: Int
    /// The start of a line whose end has not arrived yet.
    private var pending: [UInt8] = []
    private var discarding = false
    private var atStreamStart = true

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Hands the lines `chunk` completes to `receiver`.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, into receiver: inout some MessageReceiver) {
        var start = 0
        while start < chunk.count {
            guard let newline = chunk.firstLineFeed(from: start) else {
                append(UnsafeBufferPointer(rebasing: chunk[start...]))
                return
            }
            let tail = UnsafeBufferPointer(rebasing: chunk[start..<newline])
            if pending.isEmpty && !discarding {
                // The whole line is in this chunk: read it where it lies, without copying it.
                end(tail, into: &receiver)
            } else {
                append(tail)
                if discarding {
                    receiver.receiveOversize()
                    atStreamStart = false
                } else {
                    let line = pending
                    line.withUnsafeBufferPointer { end($0, into: &receiver) }
                }
                pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
                discarding = false
            }
            start = newline + 1
        }
    }

    /// Ends the stream: bytes left without a newline are a last line like any other (the JSON
    /// Lines convention), so a message cut off there is answered as any line that is not JSON.
    mutating func finish(into receiver: inout some MessageReceiver) {
        if discarding {
            receiver.receiveOversize()
        } else if !pending.isEmpty {
            let rest = pending
            rest.withUnsafeBufferPointer { end($0, into: &receiver) }
        }
        pending = []
        discarding = false
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !discarding, !bytes.isEmpty else { return }
        if pending.count + bytes.count > maxLineBytes + Self.allowance {
            discarding = true
            pending = []
            return
        }
        pending.append(contentsOf: bytes)
    }

    /// A whole line, without its `\n`.
    private mutating func end(_ whole: UnsafeBufferPointer<UInt8>, into receiver: inout some MessageReceiver) {
        if whole.count > maxLineBytes + Self.allowance {
            receiver.receiveOversize()
            atStreamStart = false
            return
        }
        var line = whole[...]
        if atStreamStart {
            atStreamStart = false
            if line.starts(with: Self.byteOrderMark) { line = line.dropFirst(3) }
        }
        if line.last == 0x0D { line = line.dropLast() }
        if line.count > maxLineBytes {
            receiver.receiveOversize()
        } else if !line.allSatisfy(\.isBlank) {
            receiver.receive(UnsafeBufferPointer(rebasing: line))
        }
    }

    /// A `\r` may still be stripped at the line's end, so one byte more than the limit is held.
    private static let allowance = 1
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
