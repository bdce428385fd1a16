import CICU
import Foundation

/// JSON Schema's `format` values that are asserted where a schema's dialect, a validation or a
/// form asks (validation §7.3), each judged on a string; an unknown format is no assertion (nil).
public enum StringFormat {
    /// Whether `text` is of `format`; nil when the format is not one of those asserted.
    public static func check(_ format: String, _ text: String) -> Bool? {
        switch format {
        case "email", "idn-email": return EmailAddress.isValid(text)
        case "hostname": return isHostname(text)
        case "idn-hostname": return isIDNHostname(text)
        case "ipv4": return isIPv4(text)
        case "ipv6": return isIPv6(text)
        case "date": return isDate(Substring(text))
        case "time": return isTime(Substring(text))
        case "date-time": return isDateTime(text)
        case "duration": return isDuration(text)
        case "uuid": return isUUID(text)
        case "uri": return isURI(text, absolute: true, international: false)
        case "uri-reference": return isURI(text, absolute: false, international: false)
        case "iri": return isURI(text, absolute: true, international: true)
        case "iri-reference": return isURI(text, absolute: false, international: true)
        case "uri-template": return isURITemplate(text)
        case "json-pointer": return isJSONPointer(Substring(text))
        case "relative-json-pointer": return isRelativeJSONPointer(text)
        case "regex": return CompiledPattern.named(ECMAPattern.translated(text)) != nil
        default: return nil
        }
    }

    public static let known: Set<String> = [
        "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "date", "time", "date-time", "duration", "uuid",
        "uri", "uri-reference", "iri", "iri-reference", "uri-template", "json-pointer", "relative-json-pointer", "regex",
    ]

    // MARK: Hosts (RFC 1123 §2.1, RFC 5890)

    static func isHostname(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            // "--" in the third and fourth places is reserved for A-labels (xn--), which must then decode.
            let bytes = Array(label.utf8)
            if bytes.count >= 4, bytes[2] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: "-"), !label.lowercased().hasPrefix("xn--") { return false }
            return label.utf8.allSatisfy { $0 < 0x80 && (($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D) }
        }
    }

    /// IDNA2008 through UTS #46 (nontransitional, STD3, CONTEXTJ, CONTEXTO, Bidi), every label
    /// (an A-label is decoded and checked as its U-label), then the result as a `hostname`.
    static func isIDNHostname(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 1024 else { return false }
        // RFC 5892 §2.6: exceptions IDNA2008 disallows, which UTS #46 maps or keeps.
        guard !text.unicodeScalars.contains(where: { disallowedExceptions.contains($0.value) }) else { return false }
        var ascii = [UInt8](repeating: 0, count: 1024)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBufferPointer { name in
            ascii.withUnsafeMutableBufferPointer { out in signup_hostname_to_ascii_strict(name.baseAddress, Int32(name.count), out.baseAddress, Int32(out.count)) }
        }
        guard written > 0 else { return false }
        return isHostname(String(decoding: ascii[..<Int(written)], as: UTF8.self))
    }

    static let disallowedExceptions: Set<UInt32> = [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B]

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part), value <= 255 else { return false }
            return part.count == 1 || part.first != "0"
        }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    // MARK: Dates and times (RFC 3339 §5.6, ISO 8601 durations as RFC 3339 appendix A)

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2), let day = digits(parts[2], 2),
              (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    static func isTime(_ text: Substring) -> Bool {
        let upper = text.uppercased()
        var rest = Substring(upper)
        var offsetMinutes = 0
        if rest.hasSuffix("Z") {
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = rest[rest.index(after: sign)...].split(separator: ":", omittingEmptySubsequences: false)
            guard offset.count == 2, let hours = digits(offset[0], 2), let minutes = digits(offset[1], 2), hours <= 23, minutes <= 59 else { return false }
            offsetMinutes = (hours * 60 + minutes) * (rest[sign] == "+" ? 1 : -1)
            rest = rest[..<sign]
        } else {
            return false
        }
        if let dot = rest.firstIndex(of: ".") {
            let fraction = rest[rest.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            rest = rest[..<dot]
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], 2), let minute = digits(parts[1], 2), let second = digits(parts[2], 2),
              hour <= 23, minute <= 59, second <= 60 else { return false }
        if second == 60 {
            // A leap second is only ever 23:59:60 in UTC.
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return isDate(text[..<separator]) && isTime(text[text.index(after: separator)...])
    }

    static func isDuration(_ text: String) -> Bool {
        guard text.hasPrefix("P"), text.count > 1 else { return false }
        var rest = text.dropFirst()
        if rest.hasSuffix("W") {
            let weeks = rest.dropLast()
            return !weeks.isEmpty && weeks.allSatisfy { $0.isASCII && $0.isNumber }
        }
        func units(_ part: Substring, _ order: [Character]) -> Bool {
            var remaining = order[...]
            var number = ""
            var any = false
            for character in part {
                if character.isASCII && character.isNumber {
                    number.append(character)
                } else {
                    guard !number.isEmpty, let index = remaining.firstIndex(of: character) else { return false }
                    remaining = remaining[(index + 1)...]
                    number = ""
                    any = true
                }
            }
            return number.isEmpty && any
        }
        var time: Substring?
        if let t = rest.firstIndex(of: "T") {
            time = rest[rest.index(after: t)...]
            rest = rest[..<t]
        }
        if let time, !units(time, ["H", "M", "S"]) { return false }
        if !rest.isEmpty && !units(rest, ["Y", "M", "D"]) { return false }
        return !rest.isEmpty || time != nil
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }

    // MARK: References (RFC 3986, RFC 3987, RFC 6570, RFC 6901)

    static func isURI(_ text: String, absolute: Bool, international: Bool) -> Bool {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if scalar == "%" {
                guard scalars.count >= 2, scalars.prefix(2).allSatisfy({ $0.properties.isASCIIHexDigit }) else { return false }
                scalars = scalars.dropFirst(2)
            } else if !allowed.contains(scalar) && !(international && scalar.value >= 0xA0) {
                return false
            }
        }
        let uri = SchemaURI(text)
        if absolute && uri.scheme == nil { return false }
        if uri.scheme == nil, let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") { return false }
        if let authority = uri.authority {
            // Brackets only around an IP literal host.
            let host = authority.split(separator: "@").last.map(String.init) ?? ""
            if host.contains("[") || host.contains("]") {
                guard host.hasPrefix("["), let close = host.firstIndex(of: "]") else { return false }
                return isIPv6(String(host[host.index(after: host.startIndex)..<close]))
            }
        } else if text.contains("[") || text.contains("]") {
            return uri.fragment?.contains("[") == true ? false : !(uri.path + (uri.query ?? "")).contains("[")
        }
        return true
    }

    static func isURITemplate(_ text: String) -> Bool {
        var open = false
        for character in text {
            if character == "{" { if open { return false }; open = true }
            if character == "}" { if !open { return false }; open = false }
        }
        return !open
    }

    static func isJSONPointer(_ text: Substring) -> Bool {
        guard text.isEmpty || text.hasPrefix("/") else { return false }
        var characters = text.makeIterator()
        while let character = characters.next() {
            if character == "~" {
                guard let next = characters.next(), next == "0" || next == "1" else { return false }
            }
        }
        return true
    }

    static func isRelativeJSONPointer(_ text: String) -> Bool {
        let prefix = text.prefix { $0.isASCII && $0.isNumber }
        guard !prefix.isEmpty, prefix == "0" || prefix.first != "0" else { return false }
        let rest = text.dropFirst(prefix.count)
        return rest == "#" || isJSONPointer(rest)
    }
}
