import CICU
import Foundation

/// Unicode normalisation form KC, by ICU: its time is linear in the value and its normal form,
/// where Foundation's grows much faster on values that expand (U+FDFA is eighteen characters in
/// NFKC). Foundation's is the fallback when ICU cannot be loaded.
enum CompatibilityComposition {
    static func normalize(_ value: String) -> String {
        // ASCII is its own normal form.
        if value.isASCII { return value }
        return ICUNormalizer.normalize(value, by: signup_nfkc) ?? value.precomposedStringWithCompatibilityMapping
    }
}

/// Unicode normalisation form C, by ICU, as `CompatibilityComposition` gives form KC; Foundation's
/// is the fallback when ICU cannot be loaded.
enum CanonicalComposition {
    static func normalize(_ value: String) -> String {
        if value.isASCII { return value }
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
