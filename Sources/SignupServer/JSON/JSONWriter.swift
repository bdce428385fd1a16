import SignupCore

/// Builds one JSON text into bytes, members in the order they are written, so every message has
/// one fixed, documented shape. Non-ASCII text is written as UTF-8, not escaped.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(open)
        needsComma = false
        body(&self)
        bytes.append(close)
        needsComma = true
    }

    /// Writes a member name known when the program is built; the next value written is its value.
    /// Such names never need escaping, so their bytes are copied as they are.
    mutating func key(_ name: StaticString) {
        string(literal: name)
        beginValue()
    }

    /// Writes a member name that arrives at run time, escaping it as needed.
    mutating func key(escaping name: String) {
        string(name)
        beginValue()
    }

    /// After a member name: the colon, and no comma before the value.
    private mutating func beginValue() {
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        needsComma = true
    }

    mutating func int(_ value: Int64) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
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
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
        needsComma = true
    }

    mutating func int(_ value: Int) {
        int(Int64(value))
    }

    mutating func bool(_ value: Bool) {
        raw(literal: value ? "true" : "false")
    }

    mutating func null() {
        raw(literal: "null")
    }

    private mutating func raw(literal text: StaticString) {
        separate()
        appendBytes(of: text)
        needsComma = true
    }

    /// Writes a string known when the program is built (a version, a method or state name).
    mutating func string(literal value: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendBytes(of: value)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes already-valid JSON text, such as a number's original lexeme.
    mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func json(_ value: JSON) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let text): raw(text)
        case .string(let text): string(text)
        case .array(let elements): array { writer in for element in elements { writer.json(element) } }
        case .object(let members):
            object { writer in
                for member in members {
                    writer.key(escaping: member.key)
                    writer.json(member.value)
                }
            }
        }
    }

    /// Writes a core value; object members are sorted by name so output never depends on hashing.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): raw(number.isFinite ? "\(number)" : "null")
        case .string(let text): string(text)
        case .array(let elements): array { writer in for element in elements { writer.value(element) } }
        case .object(let members):
            object { writer in
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    writer.key(escaping: name)
                    writer.value(member)
                }
            }
        }
    }

    mutating func fields(_ members: [String: JSONValue]) {
        value(.object(members))
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendBytes(of text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Copy runs that need no escaping in one go; most strings are one such run.
            var runStart = 0
            var offset = 0
            while offset < utf8.count {
                let byte = utf8[offset]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<offset]))
                    runStart = offset + 1
                    appendEscaped(byte)
                }
                offset += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0..<0x20:
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        default: bytes.append(byte)
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
