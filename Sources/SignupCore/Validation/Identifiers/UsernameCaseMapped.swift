import Foundation

/// The PRECIS UsernameCaseMapped profile of RFC 8265 §3.3, as a normalisation: fullwidth and
/// halfwidth characters mapped to their usual forms (`ｊｏｅ` → `joe`), then lower case, then
/// Unicode normalisation form C. What the profile refuses (spaces, symbols outside ASCII, …) is
/// the `precisIdentifier` character class's to say, so that the person is told.
enum UsernameCaseMapped {
    static func normalize(_ value: String) -> String {
        if value.isASCII { return value.lowercasedSharingLowerASCII() }
        // Most names hold no width variant: nothing to map, so no copy to build.
        guard value.unicodeScalars.contains(where: isWidthVariant) else { return CanonicalComposition.normalize(value.lowercased()) }
        var mapped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if let ascii = asciiOfFullwidth(scalar) {
                mapped.append(ascii)
            } else if isWidthVariant(scalar) {
                // A width variant's compatibility decomposition is its usual form.
                mapped.append(contentsOf: CompatibilityComposition.normalize(String(scalar)).unicodeScalars)
            } else {
                mapped.append(scalar)
            }
        }
        let text = String(mapped)
        // A fullwidth name (`ｊｏｅ`) maps to ASCII, which lower case and NFC leave ASCII.
        return text.isASCII ? text.lowercasedSharingLowerASCII() : CanonicalComposition.normalize(text.lowercased())
    }

    /// The ASCII character a fullwidth form (U+FF01–U+FF5E) decomposes to, 0xFEE0 below it (a
    /// test checks every one against the decomposition); nil for any other code point.
    static func asciiOfFullwidth(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        (0xFF01...0xFF5E).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value - 0xFEE0)) : nil
    }

    /// The Halfwidth and Fullwidth Forms block, and the ideographic space, whose decomposition
    /// type is `<wide>` or `<narrow>`.
    private static func isWidthVariant(_ scalar: Unicode.Scalar) -> Bool {
        (0xFF01...0xFFEE).contains(scalar.value) || scalar.value == 0x3000
    }
}
