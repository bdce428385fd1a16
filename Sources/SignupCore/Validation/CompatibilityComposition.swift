import CICU
import Foundation

/// Unicode normalisation form KC, by ICU: its time is linear in the value and its normal form,
/// where Foundation's grows much faster on values that expand (U+FDFA is eighteen characters in
/// NFKC). Foundation's is the fallback when ICU cannot be loaded.
enum CompatibilityComposition {
    static func normalize(_ value: String) -> String {
        // ASCII is its own normal form.
        if value.isASCII { return value }
        var value = value
        return value.withUTF8(normalizedByICU) ?? value.precomposedStringWithCompatibilityMapping
    }

    /// The NFKC form of `bytes` (UTF-8), or nil when ICU cannot give it.
    private static func normalizedByICU(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count < Int(Int32.max) else { return nil }
        var normalized: UnsafeMutablePointer<UInt8>?
        let length = signup_nfkc(bytes.baseAddress, Int32(bytes.count), &normalized)
        defer { free(normalized) }
        guard length >= 0 else { return nil }
        // No buffer: the text is in NFKC already.
        guard let normalized else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: UnsafeBufferPointer(start: normalized, count: Int(length)), as: UTF8.self)
    }
}
