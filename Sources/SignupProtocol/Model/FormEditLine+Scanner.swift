#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FormEditLine {
    /// Reads a line byte by byte, noting where the request's parts lie.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        private(set) var parts = Parts()

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func readRequest(fieldNames: KnownFieldNames) -> FormEditLine? {
            var sawVersion = false, sawMethod = false, sawParams = false, sawID = false
            var id: RequestID?
            var params = Params()
            let complete = readObject { scanner, key in
                switch key {
                case Self.jsonrpc where !sawVersion:
                    sawVersion = true
                    return scanner.skipString(matching: Self.version)
                case Self.method where !sawMethod:
                    sawMethod = true
                    return scanner.skipString(matching: Self.formEdit)
                case Self.params where !sawParams:
                    sawParams = true
                    return scanner.readParams(into: &params, fieldNames: fieldNames)
                case Self.id where !sawID:
                    sawID = true
                    id = scanner.readID()
                    return id != nil
                default:
                    return false
                }
            }
            skipWhitespace()
            guard complete, index == bytes.count, sawVersion, sawMethod,
                  let field = params.field, let value = params.value else { return nil }
            return FormEditLine(id: id, form: params.form, field: field, value: value, at: params.at)
        }

        /// `{"jsonrpc":"2.0","method":"form.edit","params":{"form":…,"field":…,"value":…,"at":…},"id":…}`
        /// exactly, with `at` and `id` optional; the values are read as `readRequest` reads them.
        mutating func readCanonicalRequest(fieldNames: KnownFieldNames) -> FormEditLine? {
            guard skip(Self.canonicalStart), let form = readForm(),
                  skip(Self.canonicalField), let field = readFieldName(fieldNames),
                  skip(Self.canonicalValue), let value = readValue() else { return nil }
            var at: Int64?
            if skip(Self.canonicalAt) {
                guard let count = readCount() else { return nil }
                at = count
            }
            guard take(UInt8(ascii: "}")) else { return nil }
            var id: RequestID?
            if skip(Self.canonicalID) {
                guard let requestID = readID() else { return nil }
                id = requestID
            }
            guard take(UInt8(ascii: "}")), index == bytes.count else { return nil }
            return FormEditLine(id: id, form: form, field: field, value: value, at: at)
        }

        private static let canonicalStart: StaticString = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"#
        private static let canonicalField: StaticString = #","field":"#
        private static let canonicalValue: StaticString = #","value":"#
        private static let canonicalAt: StaticString = #","at":"#
        private static let canonicalID: StaticString = #","id":"#

        /// Takes `literal` if the bytes at the cursor are exactly it.
        @inline(__always)
        private mutating func skip(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count, let base = bytes.baseAddress,
                  memcmp(base + index, literal.utf8Start, count) == 0 else { return false }
            index += count
            return true
        }

        private struct Params {
            var sawForm = false, sawAt = false
            var form: String?, field: String?, value: String?, at: Int64?
        }

        private mutating func readParams(into params: inout Params, fieldNames: KnownFieldNames) -> Bool {
            readObject { scanner, key in
                switch key {
                case Self.form where !params.sawForm:
                    params.sawForm = true
                    params.form = scanner.readForm()
                    return params.form != nil
                case Self.field where params.field == nil:
                    params.field = scanner.readFieldName(fieldNames)
                    return params.field != nil
                case Self.value where params.value == nil:
                    params.value = scanner.readValue()
                    return params.value != nil
                case Self.at where !params.sawAt:
                    params.sawAt = true
                    params.at = scanner.readCount()
                    return params.at != nil
                default:
                    return false
                }
            }
        }

        /// Reads `{ "key": value, ... }`, handing each key's bytes to `member`, which reads the
        /// value and says whether it was of the plain shape.
        private mutating func readObject(
            _ member: (inout Scanner, UnsafeBufferPointer<UInt8>) -> Bool
        ) -> Bool {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard let (key, _) = readPlainString() else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard member(&self, key) else { return false }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// The bytes between quotes, when they hold no escape and no control character, and
        /// whether they are all ASCII.
        private mutating func readPlainString() -> (text: UnsafeBufferPointer<UInt8>, isASCII: Bool)? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            // A local cursor over the raw bytes: this loop runs for every byte of every keystroke.
            guard let base = bytes.baseAddress else { return nil }
            let start = index
            var position = start
            var high: UInt8 = 0
            while position < bytes.count {
                let byte = base[position]
                if byte == UInt8(ascii: "\"") {
                    index = position + 1
                    return (UnsafeBufferPointer(start: base + start, count: position - start), high < 0x80)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                high |= byte
                position += 1
            }
            return nil
        }

        /// A string, or the known field name it spells.
        private mutating func readFieldName(_ fieldNames: KnownFieldNames) -> String? {
            let start = index
            guard let (text, isASCII) = readPlainString() else { return nil }
            parts.field = (start + 1)..<(index - 1)
            return fieldNames.name(spelledBy: text) ?? Self.string(text, isASCII: isASCII)
        }

        /// `form`'s string, its text's place in the line noted.
        private mutating func readForm() -> String? {
            let start = index
            guard let string = readString() else { return nil }
            parts.form = (start + 1)..<(index - 1)
            return string
        }

        /// `value`'s string, its place in the line, quotes and all, noted.
        private mutating func readValue() -> String? {
            let start = index
            guard let string = readString() else { return nil }
            parts.value = start..<index
            return string
        }

        private mutating func readString() -> String? {
            guard let (text, isASCII) = readPlainString() else { return nil }
            return Self.string(text, isASCII: isASCII)
        }

        private static func string(_ text: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
            let string = String(decoding: text, as: UTF8.self)
            // Decoding repairs invalid UTF-8, which the full parser refuses, and a run of combining
            // marks it refuses too: such a line goes there.
            guard isASCII || (string.utf8.elementsEqual(text) && !CombiningMarks.exceed(in: string)) else { return nil }
            return string
        }

        private mutating func skipString(matching expected: StaticString) -> Bool {
            guard let (text, _) = readPlainString() else { return false }
            return expected ~= text
        }

        /// A string id, or an integer id kept as written.
        private mutating func readID() -> RequestID? {
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                return readString().map(RequestID.string)
            }
            let negative = take(UInt8(ascii: "-"))
            guard let digits = readDigits(), digits.count <= 18 else { return nil }
            return .number((negative ? "-" : "") + String(decoding: digits, as: UTF8.self))
        }

        /// A whole number of 0 or more that certainly fits in 64 bits.
        private mutating func readCount() -> Int64? {
            guard let digits = readDigits(), digits.count <= 18 else { return nil }
            return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        }

        /// Digits of a JSON integer (no leading zero), ending where a value may end.
        private mutating func readDigits() -> UnsafeBufferPointer<UInt8>? {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard !digits.isEmpty, digits.count == 1 || digits[digits.startIndex] != UInt8(ascii: "0") else { return nil }
            // A fraction or exponent makes it a number this reader leaves alone.
            if index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return digits
        }

        @inline(__always)
        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            while index < bytes.count, bytes[index].isJSONWhitespace { index += 1 }
        }

        private static let jsonrpc: StaticString = "jsonrpc"
        private static let version: StaticString = "2.0"
        private static let method: StaticString = "method"
        private static let formEdit: StaticString = "form.edit"
        private static let params: StaticString = "params"
        private static let id: StaticString = "id"
        private static let form: StaticString = "form"
        private static let field: StaticString = "field"
        private static let value: StaticString = "value"
        private static let at: StaticString = "at"
    }
}

/// `case Scanner.name:` in a switch over a key's bytes.
@inline(__always)
private func ~= (name: StaticString, key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.count == name.utf8CodeUnitCount else { return false }
    let expected = name.utf8Start
    for offset in 0..<key.count where key[offset] != expected[offset] { return false }
    return true
}
