import CICU
import Foundation

/// Names that look alike: the confusable skeleton of Unicode TS #39 §4 (ICU), compared without
/// regard to case. The key is skeleton(lower(skeleton(name))): the first skeleton reads each
/// character as written, so a capital I is the `l` it looks like (`googIe`, `IIama`) and a Greek
/// capital the Latin one (`ΚΕΥ`); lowering then folds case (`G00GLE`, whose zeros are the
/// skeleton's `O`, beside `GOOGLE`); the second skeleton maps what lowering made back to the
/// prototypes. `paypal` with a Cyrillic а, `PayPal` and `paypa1` share the key of `paypal`, so a
/// directory that keeps one name per key never holds two that a reader cannot tell apart.
public enum ConfusableSkeleton {
    /// The key of `name`; the name lower-cased when ICU cannot be loaded.
    public static func of(_ name: String) -> String {
        guard let first = skeleton(name), let second = skeleton(first.lowercased()) else { return name.lowercased() }
        return second
    }

    /// ICU's skeleton of `text`, or nil.
    private static func skeleton(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.count < Int(Int32.max) else { return nil }
            var skeleton: UnsafeMutablePointer<UInt8>?
            let length = signup_confusable_skeleton(bytes.baseAddress, Int32(bytes.count), &skeleton)
            defer { free(skeleton) }
            guard length >= 0, let skeleton else { return nil }
            return String(decoding: UnsafeBufferPointer(start: skeleton, count: Int(length)), as: UTF8.self)
        }
    }
}
