extension FormEditLine {
    /// The request on `line` read through `JSONReader` member by member straight into its types,
    /// and where its parts lie; nil for any other shape and for every line the reader refuses.
    ///
    /// The shape clients write, members in the specification's order without whitespace, is
    /// matched literally first (about a third of the cost); any other order is then read member by member.
    static func decode(
        _ line: UnsafeBufferPointer<UInt8>, maxDepth: Int, fieldNames: KnownFieldNames
    ) -> (edit: FormEditLine, parts: Parts)? {
        guard maxDepth >= 2 else { return nil }
        var parts = Parts()
        var reader = JSONReader(line, maxDepth: maxDepth)
        if let edit = try? readCanonicalRequest(&reader, &parts, fieldNames) { return (edit, parts) }
        parts = Parts()
        reader = JSONReader(line, maxDepth: maxDepth)
        guard let edit = try? readRequest(&reader, &parts, fieldNames) else { return nil }
        return (edit, parts)
    }

    /// `{"jsonrpc":"2.0","method":"form.edit","params":{"form":…,"field":…,"value":…,"at":…},"id":…}`
    /// exactly, with `at` and `id` optional; the values are read as `readRequest` reads them.
    private static func readCanonicalRequest(
        _ reader: inout JSONReader, _ parts: inout Parts, _ fieldNames: KnownFieldNames
    ) throws(JSONParseError) -> FormEditLine? {
        guard reader.take(Member.canonicalStart), let form = try reader.readForm(noting: &parts),
              reader.take(Member.canonicalField), let field = try reader.readFieldName(fieldNames, noting: &parts),
              reader.take(Member.canonicalValue), let value = try reader.readValue(noting: &parts) else { return nil }
        var at: Int64?
        if reader.take(Member.canonicalAt) {
            guard let count = try reader.readCount() else { return nil }
            at = count
        }
        guard reader.take(UInt8(ascii: "}")) else { return nil }
        var id: RequestID?
        if reader.take(Member.canonicalID) {
            guard let requestID = try reader.readID() else { return nil }
            id = requestID
        }
        guard reader.take(UInt8(ascii: "}")), reader.index == reader.bytes.count else { return nil }
        return FormEditLine(id: id, form: form, field: field, value: value, at: at)
    }

    /// The request with its members in any order, each once, and whitespace between tokens.
    private static func readRequest(
        _ reader: inout JSONReader, _ parts: inout Parts, _ fieldNames: KnownFieldNames
    ) throws(JSONParseError) -> FormEditLine? {
        var sawVersion = false, sawMethod = false, sawParams = false, sawID = false
        var id: RequestID?
        var params = Params()
        reader.skipWhitespace()
        guard reader.current == UInt8(ascii: "{") else { return nil }
        let complete = try reader.readObject(depth: 1, key: { $1 }) { (reader, key) throws(JSONParseError) in
            switch key {
            case Member.jsonrpc where !sawVersion:
                sawVersion = true
                return try reader.readString(matching: Member.version)
            case Member.method where !sawMethod:
                sawMethod = true
                return try reader.readString(matching: Member.formEdit)
            case Member.params where !sawParams:
                sawParams = true
                return try readParams(&reader, into: &params, &parts, fieldNames)
            case Member.id where !sawID:
                sawID = true
                id = try reader.readID()
                return id != nil
            default:
                return false
            }
        }
        try reader.expectEnd()
        guard complete, sawVersion, sawMethod, let field = params.field, let value = params.value else { return nil }
        return FormEditLine(id: id, form: params.form, field: field, value: value, at: params.at)
    }

    private struct Params {
        var sawForm = false, sawAt = false
        var form: String?, field: String?, value: String?, at: Int64?
    }

    private static func readParams(
        _ reader: inout JSONReader, into params: inout Params, _ parts: inout Parts, _ fieldNames: KnownFieldNames
    ) throws(JSONParseError) -> Bool {
        guard reader.current == UInt8(ascii: "{") else { return false }
        return try reader.readObject(depth: 2, key: { $1 }) { (reader, key) throws(JSONParseError) in
            switch key {
            case Member.form where !params.sawForm:
                params.sawForm = true
                params.form = try reader.readForm(noting: &parts)
                return params.form != nil
            case Member.field where params.field == nil:
                params.field = try reader.readFieldName(fieldNames, noting: &parts)
                return params.field != nil
            case Member.value where params.value == nil:
                params.value = try reader.readValue(noting: &parts)
                return params.value != nil
            case Member.at where !params.sawAt:
                params.sawAt = true
                params.at = try reader.readCount()
                return params.at != nil
            default:
                return false
            }
        }
    }

    /// The names and literal runs of the request's plain shape.
    private enum Member {
        static let canonicalStart: StaticString = #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"#
        static let canonicalField: StaticString = #","field":"#
        static let canonicalValue: StaticString = #","value":"#
        static let canonicalAt: StaticString = #","at":"#
        static let canonicalID: StaticString = #","id":"#

        static let jsonrpc: StaticString = "jsonrpc"
        static let version: StaticString = "2.0"
        static let method: StaticString = "method"
        static let formEdit: StaticString = "form.edit"
        static let params: StaticString = "params"
        static let id: StaticString = "id"
        static let form: StaticString = "form"
        static let field: StaticString = "field"
        static let value: StaticString = "value"
        static let at: StaticString = "at"
    }
}

/// The values of a `form.edit` request as its plain shape has them: each read returns nil for a
/// value of another shape, which sends the line to `JSONParser`.
extension JSONReader {
    /// A string without escapes.
    private mutating func readPlainString() throws(JSONParseError) -> StringToken? {
        guard current == UInt8(ascii: "\"") else { return nil }
        let token = try readString()
        return token.isEscaped ? nil : token
    }

    /// `form`'s string, its text's place in the line noted.
    fileprivate mutating func readForm(noting parts: inout FormEditLine.Parts) throws(JSONParseError) -> String? {
        guard let token = try readPlainString() else { return nil }
        parts.form = (token.quote + 1)..<(index - 1)
        return try string(token)
    }

    /// A field's name, as the known field name it spells if it does, its text's place noted.
    fileprivate mutating func readFieldName(
        _ fieldNames: KnownFieldNames, noting parts: inout FormEditLine.Parts
    ) throws(JSONParseError) -> String? {
        guard let token = try readPlainString() else { return nil }
        parts.field = (token.quote + 1)..<(index - 1)
        if let known = fieldNames.name(spelledBy: token.text) { return known }
        return try string(token)
    }

    /// `value`'s string, its place in the line, quotes and all, noted.
    fileprivate mutating func readValue(noting parts: inout FormEditLine.Parts) throws(JSONParseError) -> String? {
        guard let token = try readPlainString() else { return nil }
        parts.value = token.quote..<index
        return try string(token)
    }

    fileprivate mutating func readString(matching expected: StaticString) throws(JSONParseError) -> Bool {
        guard let token = try readPlainString() else { return false }
        return expected ~= token
    }

    /// A string id, or an integer id kept as written.
    fileprivate mutating func readID() throws(JSONParseError) -> RequestID? {
        if current == UInt8(ascii: "\"") {
            guard let token = try readPlainString() else { return nil }
            return .string(try string(token))
        }
        guard let digits = try readInteger() else { return nil }
        return .number(String(decoding: digits, as: UTF8.self))
    }

    /// A whole number of 0 or more that certainly fits in 64 bits.
    fileprivate mutating func readCount() throws(JSONParseError) -> Int64? {
        guard current != UInt8(ascii: "-"), let digits = try readInteger() else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    /// A number without fraction or exponent, of at most 18 digits.
    private mutating func readInteger() throws(JSONParseError) -> UnsafeBufferPointer<UInt8>? {
        guard let first = current, first == UInt8(ascii: "-") || first.isDigit else { return nil }
        let text = try readNumber()
        let digitCount = text.count - (first == UInt8(ascii: "-") ? 1 : 0)
        guard digitCount <= 18, !text.contains(where: { !$0.isDigit && $0 != UInt8(ascii: "-") }) else { return nil }
        return text
    }
}

/// `case Member.name:` in a switch over a key: a key without escapes that spells `name`.
@inline(__always)
private func ~= (name: StaticString, key: JSONReader.StringToken) -> Bool {
    !key.isEscaped && UnsafeRawBufferPointer(key.text).hasSameBytes(as: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
}
