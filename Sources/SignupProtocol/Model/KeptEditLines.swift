/// The plain `form.edit` lines of one read, kept as read for the recording: the reading thread
/// copies each line here as it reads it, with where its form, field and value lie, so that the
/// loop notes only that an edit came and when, and the encoder writes the line as it came (its
/// value replaced where it is a secret) instead of writing the request again from its parts.
///
/// Filled on the reading thread before its batch is handed over; only read after that.
package final class KeptEditLines: @unchecked Sendable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var byteCount = 0
    /// Lines kept.
    package var count: Int { kept }
    /// `count`'s storage, private so that the compiler checks its accesses, not the run time.
    private var kept = 0

    /// Lines from a read of `readBytes` bytes: room for as many keystroke-sized lines at once.
    package init(readBytes: Int = 0) {
        capacity = max(readBytes, 0) / 2 * 3 + 256
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
    }

    /// An edit line and where its parts lie; its buffers are valid only during the call that
    /// hands it over.
    package struct Line {
        package let line: UnsafeRawBufferPointer
        package let form: UnsafeRawBufferPointer?
        /// `FormIDHash.process` of the form, when the line names one.
        package let formHash: UInt64
        package let field: UnsafeRawBufferPointer
        /// `value`'s place in `line`, quotes and all.
        package let value: Range<Int>
    }

    /// What is written before each line: its length, and where its parts lie in it.
    private struct Header {
        let count: Int
        let form: Range<Int>?
        let formHash: UInt64
        let field: Range<Int>
        let value: Range<Int>
    }

    private static let headerSize = MemoryLayout<Header>.stride

    /// Keeps `line`, whose request is `edit` with its `parts` where `FormEditLine` found them.
    package func append(_ line: UnsafeBufferPointer<UInt8>, _ edit: FormEditLine, _ parts: FormEditLine.Parts) {
        // Each header starts 8-byte aligned, so it is stored and loaded as the value it is.
        let start = (byteCount + 7) & ~7
        let needed = start + Self.headerSize + line.count
        if needed > capacity { grow(toHold: needed) }
        let header = Header(count: line.count, form: parts.form, formHash: edit.formHash ?? 0, field: parts.field, value: parts.value)
        (base + start).storeBytes(of: header, as: Header.self)
        if let source = line.baseAddress {
            (base + start + Self.headerSize).copyMemory(from: source, byteCount: line.count)
        }
        byteCount = needed
        kept += 1
    }

    private func grow(toHold needed: Int) {
        capacity = max(needed, capacity * 2)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: base, byteCount: byteCount)
        base.deallocate()
        base = grown
    }

    /// Hands `body` the line at `offset` (0 for the first); returns the offset of the next. Not
    /// generic, so that a caller in another module runs no generic code.
    package func line(at offset: Int, _ body: (Line) -> Void) -> Int {
        let start = (offset + 7) & ~7
        precondition(start + Self.headerSize <= byteCount, "kept edit lines are read as they were written")
        let header = (base + start).load(as: Header.self)
        let line = UnsafeRawBufferPointer(start: base + start + Self.headerSize, count: header.count)
        let kept = Line(
            line: line, form: header.form.map { UnsafeRawBufferPointer(rebasing: line[$0]) }, formHash: header.formHash,
            field: UnsafeRawBufferPointer(rebasing: line[header.field]), value: header.value)
        body(kept)
        return start + Self.headerSize + header.count
    }
}
