import CICU

/// The HTML standard's "valid e-mail address", what browsers accept for `<input type=email>`:
/// a local part of ASCII letters, digits and ``.!#$%&'*+/=?^_`{|}~-``, then `@`, then a domain of
/// dot-separated labels of 1 to 63 letters, digits and hyphens, neither beginning nor ending with
/// a hyphen. A domain that is not ASCII (`bücher.de`, `例子.广告`) is accepted when UTS #46
/// processing for lookup (ICU) turns it into such labels (`xn--bcher-kva.de`). At most 254
/// characters in all; a longer value is refused before any other work.
public enum EmailAddress {
    public static let maxLength = 254

    public static func isValid(_ value: String) -> Bool {
        parts(of: value) != nil
    }

    /// An address as addresses are compared: lower-cased, its domain as UTS #46 writes it in ASCII
    /// (`Ann@Bücher.DE` and `ann@xn--bcher-kva.de` are one address); any other value lower-cased.
    public static func folded(_ value: String) -> String {
        guard let (local, domain) = parts(of: value) else { return value.lowercased() }
        return String(decoding: local, as: UTF8.self).lowercased() + "@" + String(decoding: domain, as: UTF8.self).lowercased()
    }

    /// A valid address's local part and its domain in ASCII; nil for a value that is no address.
    private static func parts(of value: String) -> (local: ArraySlice<UInt8>, domain: ArraySlice<UInt8>)? {
        // A byte count first: 254 characters of UTF-8 are at most 254 × 4 bytes of scalars; the
        // character count then settles it without walking a long value.
        guard value.utf8.count <= maxLength * 4, !value.hasMoreCharacters(than: maxLength) else { return nil }
        let bytes = Array(value.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, bytes[..<at].allSatisfy(isLocalByte) else { return nil }
        let domain = bytes[(at + 1)...]
        if domain.allSatisfy({ $0 < 0x80 }) { return isASCIIDomain(domain) ? (bytes[..<at], domain) : nil }
        var ascii = [UInt8](repeating: 0, count: maxLength + 1)
        let written = domain.withUnsafeBufferPointer { name in
            ascii.withUnsafeMutableBufferPointer { out in
                signup_domain_to_ascii(name.baseAddress, Int32(name.count), out.baseAddress, Int32(out.count))
            }
        }
        guard written > 0, isASCIIDomain(ascii[..<Int(written)]) else { return nil }
        return (bytes[..<at], ascii[..<Int(written)])
    }

    private static func isLocalByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: ".!#$%&'*+/=?^_`{|}~-".utf8.contains(byte)
        }
    }

    /// Labels of 1 to 63 ASCII letters, digits and hyphens, with no hyphen at either end.
    private static func isASCIIDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        guard !domain.isEmpty else { return false }
        for label in domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            guard label.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            }) else { return false }
        }
        return true
    }
}
