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
        withParts(of: value) { _, _ in true } ?? false
    }

    /// An address as addresses are compared: lower-cased, its domain as UTS #46 writes it in ASCII
    /// (`Ann@Bücher.DE` and `ann@xn--bcher-kva.de` are one address); any other value lower-cased.
    public static func folded(_ value: String) -> String {
        withParts(of: value) { local, domain in
            String(decoding: local, as: UTF8.self).lowercased() + "@" + String(decoding: domain, as: UTF8.self).lowercased()
        } ?? value.lowercased()
    }

    /// `body`'s result with a valid address's local part and its domain in ASCII, read in place;
    /// nil, without calling `body`, for a value that is no address. Nothing is allocated: a
    /// domain that is not ASCII is written in ASCII into a buffer of the stack's.
    private static func withParts<Result>(
        of value: String, _ body: (_ local: UnsafeBufferPointer<UInt8>, _ domain: UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        // A byte count first: 254 characters of UTF-8 are at most 254 × 4 bytes of scalars; the
        // character count then settles it without walking a long value.
        guard value.utf8.count <= maxLength * 4, !value.hasMoreCharacters(than: maxLength) else { return nil }
        var value = value
        return value.withUTF8 { bytes -> Result? in
            guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at > 0, bytes[..<at].allSatisfy(isLocalByte) else { return nil }
            let local = UnsafeBufferPointer(rebasing: bytes[..<at])
            let domain = UnsafeBufferPointer(rebasing: bytes[(at + 1)...])
            if domain.allSatisfy({ $0 < 0x80 }) { return isASCIIDomain(domain) ? body(local, domain) : nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength + 1) { ascii -> Result? in
                // At most 1 016 bytes (the guard above): the count fits the C call's `Int32`.
                let written = Int(signup_domain_to_ascii(domain.baseAddress, Int32(domain.count), ascii.baseAddress, Int32(ascii.count)))
                guard (1...ascii.count).contains(written) else { return nil }
                let name = UnsafeBufferPointer(rebasing: ascii[..<written])
                return isASCIIDomain(name) ? body(local, name) : nil
            }
        }
    }

    private static func isLocalByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: ".!#$%&'*+/=?^_`{|}~-".utf8.contains(byte)
        }
    }

    /// Labels of 1 to 63 ASCII letters, digits and hyphens, with no hyphen at either end: one
    /// pass, each label judged where its dot (or the end) is found.
    private static func isASCIIDomain(_ domain: UnsafeBufferPointer<UInt8>) -> Bool {
        var labelStart = 0
        for index in 0...domain.count {
            guard index == domain.count || domain[index] == UInt8(ascii: ".") else {
                let byte = domain[index]
                guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") else { return false }
                continue
            }
            guard (1...63).contains(index - labelStart), domain[labelStart] != UInt8(ascii: "-"), domain[index - 1] != UInt8(ascii: "-")
            else { return false }
            labelStart = index + 1
        }
        return true
    }
}
