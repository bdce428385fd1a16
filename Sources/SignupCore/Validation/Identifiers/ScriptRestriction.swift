import CICU

/// How far a name may mix scripts: the restriction levels of Unicode TS #39 §5.2, judged by ICU's
/// spoof checker. A name wholly in one script (Chinese, Cyrillic, Greek, …) passes every level
/// but `ascii`; `highlyRestrictive` also allows Latin with Han, Hiragana and Katakana (Japanese),
/// Latin with Han and Bopomofo, and Latin with Han and Hangul. Every level refuses a non-spacing
/// mark repeated on one letter, which shows as one.
public enum ScriptRestriction: String, Hashable, Sendable, CaseIterable {
    case ascii
    case singleScript
    case highlyRestrictive
    case moderatelyRestrictive
    case minimallyRestrictive

    /// Whether `value` keeps within this level; nil when ICU cannot be loaded.
    public func admits(_ value: String) -> Bool? {
        // ASCII is within every level, ICU's `ascii` the strictest, and holds no invisible
        // character: the checker need not be asked.
        if value.isASCII { return signup_restriction_checker_is_ready(cLevel) == 1 ? true : nil }
        var value = value
        let outcome = value.withUTF8 { bytes -> Int32 in
            guard bytes.count < Int(Int32.max) else { return -1 }
            return signup_exceeds_restriction_level(bytes.baseAddress, Int32(bytes.count), cLevel)
        }
        return outcome < 0 ? nil : outcome == 0
    }

    /// This level as the C shim names it.
    var cLevel: signup_restriction_level {
        switch self {
        case .ascii: signup_restriction_ascii
        case .singleScript: signup_restriction_single_script
        case .highlyRestrictive: signup_restriction_highly_restrictive
        case .moderatelyRestrictive: signup_restriction_moderately_restrictive
        case .minimallyRestrictive: signup_restriction_minimally_restrictive
        }
    }
}
