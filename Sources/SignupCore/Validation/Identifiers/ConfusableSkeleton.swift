import CICU
import Foundation

/// Names that look alike: the confusable skeleton of Unicode TS #39 §4 (ICU), taken of the name
/// lower-cased. `paypal` with a Cyrillic а, `PayPal` and `paypa1` share the skeleton of `paypal`,
/// so a directory that keeps one name per skeleton never holds two that a reader cannot tell apart.
public enum ConfusableSkeleton {
    /// The skeleton of `name`; the name lower-cased when ICU cannot be loaded.
    public static func of(_ name: String) -> String {
        var lowered = name.lowercased()
        return lowered.withUTF8 { bytes -> String? in
            guard bytes.count < Int(Int32.max) else { return nil }
            var skeleton: UnsafeMutablePointer<UInt8>?
            let length = signup_confusable_skeleton(bytes.baseAddress, Int32(bytes.count), &skeleton)
            defer { free(skeleton) }
            guard length >= 0, let skeleton else { return nil }
            return String(decoding: UnsafeBufferPointer(start: skeleton, count: Int(length)), as: UTF8.self)
        } ?? lowered
    }
}
