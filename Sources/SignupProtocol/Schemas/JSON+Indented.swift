extension JSON {
    /// The value as Python's `json.dumps(value, indent=2, ensure_ascii=False)` writes it, members
    /// in their order: the form of the documents in `schemas/`, so that a tool in either language
    /// writes them byte for byte alike.
    package var indentedText: String {
        var text = ""
        write(into: &text, depth: 0)
        return text
    }

    private func write(into text: inout String, depth: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number
        case .string(let string): Self.quote(string, into: &text)
        case .array(let elements):
            guard !elements.isEmpty else { text += "[]"; return }
            text += "["
            for (index, element) in elements.enumerated() {
                Self.startLine(after: index == 0 ? "" : ",", depth: depth + 1, into: &text)
                element.write(into: &text, depth: depth + 1)
            }
            Self.startLine(after: "", depth: depth, into: &text)
            text += "]"
        case .object(let members):
            guard !members.isEmpty else { text += "{}"; return }
            text += "{"
            for (index, member) in members.enumerated() {
                Self.startLine(after: index == 0 ? "" : ",", depth: depth + 1, into: &text)
                Self.quote(member.key, into: &text)
                text += ": "
                member.value.write(into: &text, depth: depth + 1)
            }
            Self.startLine(after: "", depth: depth, into: &text)
            text += "}"
        }
    }

    private static func startLine(after separator: String, depth: Int, into text: inout String) {
        text += separator + "\n" + String(repeating: " ", count: 2 * depth)
    }

    /// `string` quoted as Python quotes it without `ensure_ascii`: the quote, the backslash and
    /// control characters escaped, everything else as it is.
    private static func quote(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
