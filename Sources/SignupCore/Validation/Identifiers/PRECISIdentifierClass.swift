import Foundation

/// The PRECIS IdentifierClass (RFC 8264 §4.2), each code point's property derived by the
/// algorithm of RFC 8264 §8 from the categories of §9, in that order:
///
/// 1. Exceptions (RFC 5892 §2.6): `ß ς ۽ ۾ ་ 〇` valid; `· ͵ ׳ ״ ・` and the two sets of
///    Arabic-Indic digits valid in context (CONTEXTO); `ـ ߺ 〮 〯 〱–〵 〻` disallowed.
/// 2. BackwardCompatible: empty.  3. Unassigned: disallowed.  4. ASCII7 (U+0021–U+007E): valid.
/// 5. JoinControl (ZWNJ, ZWJ): valid in context (CONTEXTJ).  6. OldHangulJamo: disallowed.
/// 7. PrecisIgnorableProperties (default ignorable, noncharacters): disallowed.
/// 8. Controls: disallowed.  9. HasCompat (NFKC changes it): disallowed in this class.
/// 10. LetterDigits (Ll Lu Lo Nd Lm Mn Mc): valid.  11–14. OtherLetterDigits, Spaces, Symbols,
/// Punctuation: disallowed in this class.  Anything else: disallowed.
///
/// The contextual rules are RFC 5892 Appendix A's: a ZWJ or ZWNJ must follow a virama (the
/// joining-type alternative for ZWNJ is not taken: such a name is refused); a middle dot must
/// stand between two `l`s; a Greek keraia must precede a Greek letter; a Hebrew geresh or
/// gershayim must follow a Hebrew letter; a katakana middle dot needs a Hiragana, Katakana or Han
/// character in the name; the Arabic-Indic digits and the extended ones may not be mixed.
enum PRECISIdentifierClass {
    enum Property: Equatable {
        case valid
        case contextJ
        case contextO
        case disallowed
    }

    static func admits(_ value: String) -> Bool {
        // The common case, a name in ASCII: printable and not a space. Any other ASCII code point
        // (a space, a control) is disallowed wherever it stands, and a UTF-8 byte below 0x80 is
        // always a whole code point, so one such byte refuses the name.
        var isASCII = true
        for byte in value.utf8 {
            if byte >= 0x80 { isASCII = false } else if !(0x21...0x7E).contains(byte) { return false }
        }
        if isASCII { return true }
        let scalars = Array(value.unicodeScalars)
        for index in scalars.indices {
            switch property(of: scalars[index]) {
            case .valid: continue
            case .disallowed: return false
            case .contextJ, .contextO: if !holdsInContext(scalars, at: index) { return false }
            }
        }
        return true
    }

    static func property(of scalar: Unicode.Scalar) -> Property {
        // Where names mostly are, ranges whose every code point the derivation finds valid
        // (checked by a test): ASCII7, the CJK Unified Ideographs and the Hangul syllables.
        switch scalar.value {
        case 0x21...0x7E, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return .valid
        default: return derivedProperty(of: scalar)
        }
    }

    /// The property by RFC 8264 §8's derivation, step by step.
    static func derivedProperty(of scalar: Unicode.Scalar) -> Property {
        // No look-up for a code point outside the exceptions' span.
        if exceptionSpan.contains(scalar.value), let exception = exceptions[scalar.value] { return exception }
        let properties = scalar.properties
        if properties.generalCategory == .unassigned { return .disallowed }
        if (0x21...0x7E).contains(scalar.value) { return .valid }
        if scalar.value == 0x200C || scalar.value == 0x200D { return .contextJ }
        if isOldHangulJamo(scalar.value) { return .disallowed }
        if properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint { return .disallowed }
        if properties.generalCategory == .control { return .disallowed }
        if hasCompatibilityDecomposition(scalar) { return .disallowed }
        switch properties.generalCategory {
        case .lowercaseLetter, .uppercaseLetter, .otherLetter, .decimalNumber, .modifierLetter, .nonspacingMark, .spacingMark:
            return .valid
        default:
            return .disallowed
        }
    }

    /// RFC 5892 §2.6, which RFC 8264 §9.8 takes as it is.
    private static let exceptions: [UInt32: Property] = {
        var table: [UInt32: Property] = [:]
        for valid: UInt32 in [0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007] { table[valid] = .valid }
        for contextual: UInt32 in [0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB] { table[contextual] = .contextO }
        for digit: UInt32 in Array(0x0660...0x0669) + Array(0x06F0...0x06F9) { table[digit] = .contextO }
        for disallowed: UInt32 in [0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B] {
            table[disallowed] = .disallowed
        }
        return table
    }()

    /// From the lowest exception to the highest.
    private static let exceptionSpan: ClosedRange<UInt32> = exceptions.keys.min()!...exceptions.keys.max()!

    /// Hangul_Syllable_Type L, V or T: the conjoining jamo.
    private static func isOldHangulJamo(_ value: UInt32) -> Bool {
        (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
    }

    /// RFC 8264 §9.17: the code point is not its own NFKC, as the values' own normalisation
    /// (`CompatibilityComposition`, by ICU) gives it.
    private static func hasCompatibilityDecomposition(_ scalar: Unicode.Scalar) -> Bool {
        let alone = String(scalar)
        return CompatibilityComposition.normalize(alone).unicodeScalars.elementsEqual(alone.unicodeScalars) == false
    }

    /// RFC 5892 Appendix A's rule for the CONTEXTJ or CONTEXTO code point at `index`.
    private static func holdsInContext(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let before = index > 0 ? scalars[index - 1] : nil
        let after = index + 1 < scalars.count ? scalars[index + 1] : nil
        switch scalars[index].value {
        case 0x200C, 0x200D:
            // After a virama (canonical combining class 9).
            return before.map { $0.properties.canonicalCombiningClass.rawValue == 9 } ?? false
        case 0x00B7:
            return before?.value == 0x006C && after?.value == 0x006C
        case 0x0375:
            return after.map { $0.properties.isAlphabetic && isGreek($0) } ?? false
        case 0x05F3, 0x05F4:
            return before.map(isHebrew) ?? false
        case 0x30FB:
            return scalars.contains { $0.value != 0x30FB && (isHiragana($0) || isKatakana($0) || isHan($0)) }
        case 0x0660...0x0669:
            return !scalars.contains { (0x06F0...0x06F9).contains($0.value) }
        case 0x06F0...0x06F9:
            return !scalars.contains { (0x0660...0x0669).contains($0.value) }
        default:
            return false
        }
    }

    private static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
        (0x0370...0x03FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
    }

    private static func isHebrew(_ scalar: Unicode.Scalar) -> Bool {
        (0x0590...0x05FF).contains(scalar.value) || (0xFB1D...0xFB4F).contains(scalar.value)
    }

    private static func isHiragana(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x309F).contains(scalar.value) || scalar.value == 0x1B001 || scalar.value == 0x1F200
    }

    private static func isKatakana(_ scalar: Unicode.Scalar) -> Bool {
        (0x30A0...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
            || (0xFF66...0xFF9F).contains(scalar.value) || scalar.value == 0x1B000
    }

    private static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isIdeographic
    }
}
