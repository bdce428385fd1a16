import SignupCore
import SignupProtocol
import SignupTransport
import SignupServer

/// One batch of records as the loop notes them, in order. The ones that come with nearly every
/// keystroke are bytes, one after another in one buffer: a plain edit and a message taken as
/// written are only their time (their lines are held by `KeptEditLines` and `OutputTee`), a
/// field's change noted as a value is its form's id, result entry, version and times. No
/// allocation and no object for either thread to count. Every other record is kept as a
/// `SessionRecord` value beside them, and the bytes mark its place.
///
/// Noncopyable: it owns its bytes, written through a pointer of its own (an array checked that
/// it was unique and grew through generic code on every append).
struct RecordLog: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written.
    private(set) var byteCount = 0
    private var values: [SessionRecord] = []
    private var contexts: [EncodingContext] = []
    /// Records noted.
    private(set) var count = 0
    /// A log with this many records, or bytes, is full: its owner hands it over.
    private let fullCount: Int
    private let fullBytes: Int

    private enum Tag: UInt8 {
        case keptEdit = 1, teedOut, fieldChanged, value, context
    }

    /// A log of `capacity` bytes to start with, full at `fullCount` records or `fullBytes` bytes.
    init(capacity: Int, fullCount: Int = .max, fullBytes: Int = .max) {
        self.fullCount = fullCount
        self.fullBytes = fullBytes
        self.capacity = max(capacity, 64)
        base = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Whether the log holds as many records, or bytes, as it was made to hold. Every append
    /// answers it too, so that noting a record and asking costs its owner one access.
    var isFull: Bool { count >= fullCount || byteCount >= fullBytes }

    /// Records whose line is held elsewhere: kept edits and teed messages.
    private var linesHeldElsewhere = 0

    /// About what the log holds in memory: its bytes, each value at its size, and for each record
    /// whose line is held elsewhere (`KeptEditLines`, `OutputTee`) a line of about a keystroke's size.
    var size: Int {
        byteCount + values.count * MemoryLayout<SessionRecord>.stride + contexts.count * MemoryLayout<EncodingContext>.stride
            + linesHeldElsewhere * Self.lineBytes
    }
    private static let lineBytes = 160

    // MARK: Noting

    /// A plain `form.edit` the loop took at `time`, its line the next of the `KeptEditLines` last
    /// noted (`EncodingContext.editLines`).
    @discardableResult
    mutating func appendKeptEdit(at time: Int64) -> Bool {
        append(.keptEdit, at: time)
        return isFull
    }

    /// A message sent at `time`, its bytes the next line of the recorder's `OutputTee`.
    @discardableResult
    mutating func appendTeedOut(at time: Int64) -> Bool {
        append(.teedOut, at: time)
        return isFull
    }

    private mutating func append(_ tag: Tag, at time: Int64) {
        reserve(9)
        base.storeBytes(of: tag.rawValue, toByteOffset: byteCount, as: UInt8.self)
        base.storeBytes(of: time, toByteOffset: byteCount + 1, as: Int64.self)
        byteCount += 9
        count += 1
        linesHeldElsewhere += 1
    }

    /// A `form.fieldChanged` sent at `time`, its field and result encoded under `number` in the
    /// recorder's `EncodedFieldTable`.
    @discardableResult
    mutating func appendFieldChanged(form: String, fieldResult number: Int, version: Int, at: Int64, time: Int64) -> Bool {
        appendByte(Tag.fieldChanged.rawValue)
        appendInt(time)
        appendText(form)
        appendInt(Int64(number))
        appendInt(Int64(version))
        appendInt(at)
        count += 1
        return isFull
    }

    /// Any other record.
    @discardableResult
    mutating func append(_ record: SessionRecord) -> Bool {
        appendByte(Tag.value.rawValue)
        values.append(record)
        count += 1
        return isFull
    }

    /// What the encoder judges the records after this by.
    @discardableResult
    mutating func append(_ context: EncodingContext) -> Bool {
        appendByte(Tag.context.rawValue)
        contexts.append(context)
        count += 1
        return isFull
    }

    private mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: byteCount, as: UInt8.self)
        byteCount += 1
    }

    private mutating func appendInt(_ value: Int64) {
        reserve(8)
        base.storeBytes(of: value, toByteOffset: byteCount, as: Int64.self)
        byteCount += 8
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if byteCount + extra > capacity { grow(toHold: byteCount + extra) }
    }

    private mutating func grow(toHold needed: Int) {
        capacity = max(needed, capacity * 2)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        grown.copyMemory(from: base, byteCount: byteCount)
        base.deallocate()
        base = grown
    }

    private mutating func appendText(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ appendText(utf8: $0) }) == nil {
            var text = text
            text.withUTF8 { appendText(utf8: $0) }
        }
    }

    private mutating func appendText(utf8: UnsafeBufferPointer<UInt8>) {
        appendInt(Int64(utf8.count))
        reserve(utf8.count)
        if let source = utf8.baseAddress { (base + byteCount).copyMemory(from: source, byteCount: utf8.count) }
        byteCount += utf8.count
    }

    // MARK: Reading

    /// A record read back; its byte ranges are valid only during the call that hands it over.
    enum Entry {
        case keptEdit(time: Int64)
        case teedOut(time: Int64)
        case fieldChanged(time: Int64, FieldChanged)
        case value(SessionRecord)
        case context(EncodingContext)
    }

    /// A field's change: the form's id as UTF-8, and the rest as sent.
    struct FieldChanged {
        let form: UnsafeRawBufferPointer
        /// Its number in the recorder's `EncodedFieldTable`.
        let fieldResult: Int
        let version: Int
        let at: Int64
    }

    /// Calls `body` with each record, in the order noted.
    func forEach(_ body: (Entry) -> Void) {
        do {
            var reader = Reader(bytes: UnsafeRawBufferPointer(start: base, count: byteCount))
            var nextValue = 0
            var nextContext = 0
            while !reader.isAtEnd {
                switch Tag(rawValue: reader.byte()) {
                case .keptEdit:
                    body(.keptEdit(time: reader.int()))
                case .teedOut:
                    body(.teedOut(time: reader.int()))
                case .fieldChanged:
                    let time = reader.int()
                    let form = reader.text()
                    let fieldResult = Int(reader.int())
                    let version = Int(reader.int())
                    let at = reader.int()
                    body(.fieldChanged(time: time, FieldChanged(form: form, fieldResult: fieldResult, version: version, at: at)))
                case .value:
                    body(.value(values[nextValue]))
                    nextValue += 1
                case .context:
                    body(.context(contexts[nextContext]))
                    nextContext += 1
                case nil:
                    preconditionFailure("a record log holds only what it wrote")
                }
            }
        }
    }


    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset >= bytes.count }

        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func int() -> Int64 {
            precondition(offset + 8 <= bytes.count)
            defer { offset += 8 }
            return bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        }

        mutating func text() -> UnsafeRawBufferPointer {
            let count = Int(int())
            precondition(count >= 0 && offset + count <= bytes.count)
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        }
    }
}

/// A record log on its way from the loop to the encoder's thread, taken out there once.
final class RecordBatch: @unchecked Sendable {
    // Set on the loop before it is handed over; taken once, on the encoder's thread.
    private var log: RecordLog?
    /// What the log held when it was handed over (`RecordLog.size`).
    let size: Int

    init(_ log: consuming RecordLog) {
        size = log.size
        self.log = consume log
    }

    func take() -> RecordLog {
        guard let log = log.take() else { preconditionFailure("a record batch is taken once") }
        return log
    }
}
