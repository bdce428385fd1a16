import SignupCore

/// Builds one JSON text into bytes, members in the order they are written, so every message has
/// one fixed, documented shape. Non-ASCII text is written as UTF-8, not escaped.
///
/// It owns its buffer rather than appending to an `Array`, whose per-append checks (uniqueness,
/// capacity, a generic copy) cost more than the bytes themselves for messages this small; being
/// noncopyable, it cannot be copied by accident.
package struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    package private(set) var count = 0
    private var needsComma = false

    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// A copy of the text written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The text written so far, valid only during `body`.
    @inline(__always)
    package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Starts over, keeping the buffer for the next message.
    @inline(__always)
    package mutating func removeAll() {
        count = 0
        needsComma = false
    }

    package mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    package mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONWriter) -> Void) {
        separate()
        append(open)
        needsComma = false
        body(&self)
        append(close)
        needsComma = true
    }

    /// Writes a member name known when the program is built; the next value written is its value.
    /// Such names never need escaping, so their bytes are copied as they are.
    package mutating func key(_ name: StaticString) {
        string(literal: name)
        beginValue()
    }

    /// Writes a member name that arrives at run time, escaping it as needed.
    package mutating func key(escaping name: String) {
        string(name)
        beginValue()
    }

    /// After a member name: the colon, and no comma before the value.
    @inline(__always)
    private mutating func beginValue() {
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    @inline(__always)
    package mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    /// A string read from JSON text where it held no escapes (`FormEditLine`'s), so holding
    /// nothing to escape: quoted as it is, without the search for what to escape.
    package mutating func string(readWithoutEscapes value: String) {
        separate()
        append(UInt8(ascii: "\""))
        func put(_ utf8: UnsafeBufferPointer<UInt8>) {
            if let start = utf8.baseAddress { append(start, count: utf8.count) }
        }
        if value.utf8.withContiguousStorageIfAvailable(put) == nil {
            var value = value
            value.withUTF8(put)
        }
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string given as its UTF-8 bytes.
    package mutating func string(utf8 bytes: UnsafeRawBufferPointer) {
        separate()
        appendQuoted(utf8: bytes.assumingMemoryBound(to: UInt8.self))
        needsComma = true
    }

    package mutating func int(_ value: Int64) {
        separate()
        if value < 0 { append(UInt8(ascii: "-")) }
        // Digits come out least significant first: fill a scratch buffer from its end (20 digits
        // hold any UInt64), then copy the used part.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var magnitude = value.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(digits.baseAddress! + start, count: digits.count - start)
        }
        needsComma = true
    }

    package mutating func int(_ value: Int) {
        int(Int64(value))
    }

    package mutating func bool(_ value: Bool) {
        raw(literal: value ? "true" : "false")
    }

    package mutating func null() {
        raw(literal: "null")
    }

    /// Writes a value known when the program is built, as it is (`null`, `{}`).
    package mutating func raw(literal text: StaticString) {
        separate()
        appendBytes(of: text)
        needsComma = true
    }

    /// Writes a string known when the program is built (a version, a method or state name).
    package mutating func string(literal value: StaticString) {
        separate()
        append(UInt8(ascii: "\""))
        appendBytes(of: value)
        append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Appends text known when the program is built exactly as it is, with no comma before it or
    /// after it: a message's fixed part, such as `,"field":` before a value. The caller keeps
    /// the whole well formed.
    @inline(__always)
    package mutating func verbatim(_ text: StaticString) {
        appendBytes(of: text)
        needsComma = false
    }

    /// Appends bytes as they are, such as whole messages already encoded, with no comma around them.
    @inline(__always)
    package mutating func verbatim(_ bytes: UnsafeRawBufferPointer) {
        if let start = bytes.baseAddress { append(start.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        needsComma = false
    }

    /// Ends a line of JSON text: what follows starts a new message.
    package mutating func newline() {
        append(0x0A)
        needsComma = false
    }

    /// Writes already-valid JSON text, such as a number's original lexeme.
    package mutating func raw(_ text: String) {
        separate()
        var text = text
        text.withUTF8 { append($0.baseAddress!, count: $0.count) }
        needsComma = true
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
    }

    @inline(__always)
    private mutating func appendBytes(of text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always)
    private mutating func appendQuoted(_ text: String) {
        // Native strings are contiguous UTF-8; only a bridged or lazy one needs copying first.
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) == nil {
            var text = text
            text.withUTF8 { appendQuoted(utf8: $0) }
        }
    }

    @inline(__always)
    private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        appendEscaping(utf8)
        append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let start = utf8.baseAddress else { return }
        // Copy runs that need no escaping in one go; most strings are one such run. The scan
        // tests eight bytes at a time, and looks at single bytes only around one that needs it.
        var runStart = 0
        var offset = 0
        while offset < utf8.count {
            while offset + 8 <= utf8.count,
                  !Self.anyNeedsEscaping(UnsafeRawPointer(start + offset).loadUnaligned(as: UInt64.self)) {
                offset += 8
            }
            guard offset < utf8.count else { break }
            let byte = start[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                append(start + runStart, count: offset - runStart)
                runStart = offset + 1
                appendEscaped(byte)
            }
            offset += 1
        }
        if runStart < utf8.count { append(start + runStart, count: utf8.count - runStart) }
    }

    /// Whether any of the eight bytes in `word` is a control character, `"` or `\`: the classic
    /// has-less-than and has-zero-byte tests, exact for the word as a whole.
    @inline(__always)
    static func anyNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let control = (word &- 0x2020_2020_2020_2020) & ~word & highBits
        return control != 0 || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0..<0x20:
            appendBytes(of: "u00")
            append(Self.hexDigit(byte >> 4))
            append(Self.hexDigit(byte & 0x0F))
        default: append(byte)
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        if count + length > capacity { grow(toHold: count + length) }
        (base + count).initialize(from: source, count: length)
        count += length
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grown = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}
