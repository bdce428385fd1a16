import CICU
import Foundation

/// Unicode normalisation form KC, by ICU: its time is linear in the value and its normal form,
/// where Foundation's grows much faster on values that expand (U+FDFA is eighteen characters in
/// NFKC). Foundation's is the fallback when ICU cannot be loaded.
enum CompatibilityComposition {
    static func normalize(_ value: String) -> String {
        // ASCII is its own normal form.
        value.isASCII ? value : normalizeBeyondASCII(value)
    }

    /// Apart, so that the ASCII case stays small where it is inlined.
    @inline(never)
    private static func normalizeBeyondASCII(_ value: String) -> String {
        if isNormalOnSight(value) { return value }
        return ICUNormalizer.normalize(value, by: signup_nfkc) ?? value.precomposedStringWithCompatibilityMapping
    }

    /// Whether `value` is its own NFKC (and so its own NFC) on sight: every code point is ASCII,
    /// a CJK unified ideograph of the main block, a Hangul syllable or a basic Cyrillic letter
    /// (А–я). Each is its own NFKC, and none composes with any of them after it (composition
    /// takes a mark, a conjoining jamo or a vowel sign second), so neither ICU nor a copy is asked.
    static func isNormalOnSight(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0...0x7F, 0x0410...0x044F, 0x4E00...0x9FFF, 0xAC00...0xD7A3: true
            default: false
            }
        }
    }
}

/// Unicode normalisation form C, by ICU, as `CompatibilityComposition` gives form KC; Foundation's
/// is the fallback when ICU cannot be loaded.
enum CanonicalComposition {
    static func normalize(_ value: String) -> String {
        if value.isASCII || CompatibilityComposition.isNormalOnSight(value) { return value }
        return ICUNormalizer.normalize(value, by: signup_nfc) ?? value.precomposedStringWithCanonicalMapping
    }
}

private enum ICUNormalizer {
    /// The shim's normaliser: the normal form's length, with the bytes it allocated, 0 with none
    /// when the text is normal already, -1 when ICU cannot give it.
    typealias Normalizer = (UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32

    /// `value` as `normalizer` normalises it, or nil when ICU cannot.
    static func normalize(_ value: String, by normalizer: Normalizer) -> String? {
        var value = value
        return value.withUTF8 { bytes -> String? in
            guard bytes.count < Int(Int32.max) else { return nil }
            var normalized: UnsafeMutablePointer<UInt8>?
            let length = normalizer(bytes.baseAddress, Int32(bytes.count), &normalized)
            defer { free(normalized) }
            guard length >= 0 else { return nil }
            // No buffer: the text is in its normal form already.
            guard let normalized else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: UnsafeBufferPointer(start: normalized, count: Int(length)), as: UTF8.self)
        }
    }
}
