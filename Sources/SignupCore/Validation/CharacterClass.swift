import Foundation

/// A set of characters a field's value may be made of.
public enum CharacterClass: Hashable, Sendable {
    /// Unicode letters, marks and digits: Foundation's `alphanumerics`, as the GitHubSignup sample used.
    case alphanumerics
    /// ASCII letters and digits only.
    case asciiAlphanumerics
    /// Decimal digits 0–9 only.
    case asciiDigits
    /// The PRECIS IdentifierClass of RFC 8264 §4.2, which RFC 8265 usernames use, derived as its
    /// §8 and §9 say (`PRECISIdentifierClass`): printable ASCII but space, and letters, digits and
    /// combining marks of every script, less any with a compatibility decomposition (`𝐩`, `ﬁ`,
    /// `ℌ`, `ǅ`).
    case precisIdentifier
    /// Exactly the characters listed.
    case characters(String)
    /// Any character of either class.
    indirect case union(CharacterClass, CharacterClass)

    /// Built once: `CharacterSet.alphanumerics` makes a new set on every access.
    private static let unicodeAlphanumerics = CharacterSet.alphanumerics

    /// Whether every character of `value` belongs to this class.
    public func admits(_ value: String) -> Bool {
        if case .precisIdentifier = self { return PRECISIdentifierClass.admits(value) }
        // A loop, not `allSatisfy(contains)`: the method reference would allocate on every keystroke.
        for scalar in value.unicodeScalars where !contains(scalar) { return false }
        return true
    }

    private func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .alphanumerics:
            // In ASCII, Unicode's letters, marks and digits are exactly A–Z, a–z and 0–9.
            if scalar.isASCII { return CharacterClass.asciiAlphanumerics.contains(scalar) }
            return Self.unicodeAlphanumerics.contains(scalar)
        case .asciiAlphanumerics:
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        case .asciiDigits: return ("0"..."9").contains(scalar)
        case .precisIdentifier:
            // Alone (inside a union): the code point's own property; its context is not known.
            return PRECISIdentifierClass.property(of: scalar) == .valid
        case .characters(let allowed): return allowed.unicodeScalars.contains(scalar)
        case .union(let first, let second): return first.contains(scalar) || second.contains(scalar)
        }
    }
}
