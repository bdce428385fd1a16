/// A text with placeholders, `https://api.example.com/invites/{value}?email={email}`: `{name}`
/// stands for a value given when the text is made, `{{` and `}}` for the braces themselves.
public struct TextTemplate: Hashable, Sendable, CustomStringConvertible {
    enum Part: Hashable, Sendable {
        case text(String)
        case placeholder(String)
    }

    let parts: [Part]
    public let description: String

    /// Nil, with the reason, when a brace is left open or closed alone, or a placeholder is empty.
    public init(_ text: String) throws(TemplateError) {
        description = text
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "{" where rest.first == "{", "}" where rest.first == "}":
                literal.append(character)
                rest = rest.dropFirst()
            case "{":
                guard let close = rest.firstIndex(of: "}") else { throw .unclosedPlaceholder }
                let name = String(rest[..<close])
                guard !name.isEmpty, !name.contains("{") else { throw .badPlaceholder(name) }
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                parts.append(.placeholder(name))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw .unopenedBrace
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// The names of the placeholders, in order of first use.
    public var placeholders: [String] {
        var names: [String] = []
        for case .placeholder(let name) in parts where !names.contains(name) { names.append(name) }
        return names
    }

    /// The placeholders of this URL and then of `body`'s strings, each once, in order of first use.
    public func placeholders(and body: JSONValue?) -> [String] {
        var names = placeholders
        for name in body?.templatePlaceholders ?? [] where !names.contains(name) { names.append(name) }
        return names
    }

    /// The text with each placeholder replaced by `value(name)` passed through `encode`; nil when a
    /// placeholder has no value.
    public func render(_ value: (String) -> String?, encode: (String) -> String = { $0 }) -> String? {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .placeholder(let name):
                guard let value = value(name) else { return nil }
                text += encode(value)
            }
        }
        return text
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, so a value stays one
    /// path segment or query parameter whatever it holds.
    public static func percentEncoded(_ value: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}

/// Why a text template cannot be used.
public enum TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    case unclosedPlaceholder
    case unopenedBrace
    case badPlaceholder(String)

    public var description: String {
        switch self {
        case .unclosedPlaceholder: "has a '{' that is never closed (write '{{' for a brace)"
        case .unopenedBrace: "has a '}' that closes nothing (write '}}' for a brace)"
        case .badPlaceholder(let name): "has a placeholder '{\(name)}' that names no field"
        }
    }
}

/// A JSON body template: every string in it is a `TextTemplate` (a string that is none, with a
/// stray brace, is sent as it is).
extension JSONValue {
    /// The placeholders of its strings, in order of first use (object members by sorted name).
    public var templatePlaceholders: [String] {
        var names: [String] = []
        func collect(_ json: JSONValue) {
            switch json {
            case .string(let text):
                for name in (try? TextTemplate(text))?.placeholders ?? [] where !names.contains(name) { names.append(name) }
            case .array(let items): items.forEach(collect)
            case .object(let members): members.keys.sorted().forEach { collect(members[$0]!) }
            default: break
            }
        }
        collect(self)
        return names
    }

    /// The value with each string's placeholders replaced; nil when one has no value.
    public func renderingTemplates(_ value: (String) -> String?) -> JSONValue? {
        switch self {
        case .string(let text):
            guard let template = try? TextTemplate(text) else { return self }
            return template.render(value).map(JSONValue.string)
        case .array(let items):
            var rendered: [JSONValue] = []
            for item in items {
                guard let item = item.renderingTemplates(value) else { return nil }
                rendered.append(item)
            }
            return .array(rendered)
        case .object(let members):
            var rendered: [String: JSONValue] = [:]
            for (key, member) in members {
                guard let member = member.renderingTemplates(value) else { return nil }
                rendered[key] = member
            }
            return .object(rendered)
        default:
            return self
        }
    }
}
