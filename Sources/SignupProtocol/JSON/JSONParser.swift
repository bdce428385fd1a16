/// A strict JSON (RFC 8259) parser over UTF-8 bytes: a `JSON` tree built through `JSONReader`,
/// which checks the text, with one value filling the whole input.
package enum JSONParser {
    /// How deeply arrays and objects may nest.
    package static let defaultMaxDepth = 64

    /// `marksInARow` is the most non-starters a string may hold in a row (see `CombiningMarks`).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth, marksInARow: Int = CombiningMarks.mostInARow
    ) throws(JSONParseError) -> JSON {
        var reader = JSONReader(bytes, maxDepth: maxDepth, marksInARow: marksInARow)
        reader.skipWhitespace()
        let value = try readValue(&reader, depth: 0)
        try reader.expectEnd()
        return value
    }

    package static func parse(
        _ bytes: [UInt8], maxDepth: Int = defaultMaxDepth, marksInARow: Int = CombiningMarks.mostInARow
    ) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONParseError) {
                return .success(try parse(buffer, maxDepth: maxDepth, marksInARow: marksInARow))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The value at the reader's cursor, inside `depth` arrays and objects.
    private static func readValue(_ reader: inout JSONReader, depth: Int) throws(JSONParseError) -> JSON {
        guard let byte = reader.current else { throw JSONParseError(.unexpectedEnd, at: reader.index) }
        switch byte {
        case UInt8(ascii: "{"):
            var members: [JSON.Member] = []
            // Requests have up to four members and their params a handful: one allocation, no regrowth.
            members.reserveCapacity(6)
            _ = try reader.readObject(depth: depth + 1) { (reader, key) throws(JSONParseError) in
                try reader.string(key)
            } member: { (reader, name) throws(JSONParseError) in
                members.append(JSON.Member(key: name, value: try readValue(&reader, depth: depth + 1)))
                return true
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSON] = []
            try reader.readArray(depth: depth + 1) { (reader) throws(JSONParseError) in
                elements.append(try readValue(&reader, depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""): return .string(try reader.string(reader.readString()))
        case UInt8(ascii: "t"): try reader.readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try reader.readLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try reader.readLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(String(decoding: try reader.readNumber(), as: UTF8.self))
        default: throw JSONParseError(.unexpectedCharacter(byte), at: reader.index)
        }
    }
}
