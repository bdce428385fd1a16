import CICU
import Foundation
import Testing
@testable import SignupCore

/// Issue 36 §3: limits on characters tell a long value from a short one without always breaking
/// it into characters, and must agree with `count` everywhere.
@Suite struct CharacterCountingTests {
    static let astralMarks = "\u{1D16D}\u{1D165}\u{1E8D0}\u{11370}\u{1D167}"
    /// Values whose characters are built every way Unicode joins scalars.
    static let samples: [String] = [
        "", "a", "ab", "\r\n\r\n", "a\r\nb\r", "\r\r\n\n", "ascii only", "\r\n\u{301}", "\n\u{301}\u{301}", "a\u{301}\u{316}b", "e\u{301}e\u{301}",
        "\u{1100}\u{1161}\u{11A8}\u{1100}", "\u{1100}\u{1100}\u{1100}", "👨\u{200D}👩\u{200D}👧", "👍🏽👍",
        "🇺🇸🇫🇷🇩", "\u{600}\u{600}a", "\u{915}\u{94D}\u{937}\u{93F}", "a\u{200C}\u{200C}b", "\u{FDFA}\u{FDFA}",
        "a" + astralMarks + "b", "\u{E0001}\u{301}a", "\u{2028}\u{301}", "x\u{FE0F}\u{FE0F}", "\u{AD}\u{301}",
        String(repeating: "a" + String(repeating: "\u{301}\u{316}", count: 15), count: 20),
    ]

    @Test func limitsAgreeWithCountAtEveryLimitAroundIt() {
        for value in Self.samples {
            let count = value.count
            for limit in [-1, 0, 1, count - 1, count, count + 1, value.unicodeScalars.count] {
                #expect(value.hasMoreCharacters(than: limit) == (count > limit), "\(value.debugDescription) over \(limit)")
                #expect(value.hasFewerCharacters(than: limit) == (count < limit), "\(value.debugDescription) under \(limit)")
            }
        }
    }

    /// What lets a long value skip breaking: no break ever comes before an extender, after any
    /// scalar that is not a possible control. Checked against the standard library's own breaking.
    @Test func noCharacterBreaksBeforeAnExtenderButAfterAPossibleControl() {
        let planes = Array(0..<0x20000) + Array(0xE0000..<0xE1000)
        let scalars = planes.compactMap(Unicode.Scalar.init)
        let extenders = scalars.filter(GraphemeScalars.extenders.contains)
        #expect(extenders.count > 2000)
        for extender in extenders {
            #expect(("a" + String(extender)).count == 1, "U+\(String(extender.value, radix: 16)) joins")
        }
        for scalar in scalars where !GraphemeScalars.maybeControls.contains(scalar) {
            if (String(scalar) + "\u{301}").count != 1 {
                Issue.record("U+\(String(scalar.value, radix: 16)) is a control not counted as one")
            }
        }
    }

    @Test func aScalarSetHoldsWhatItsPropertySaysAtEveryScalar() {
        let set = ScalarSet { $0.properties.canonicalCombiningClass != .notReordered }
        for value in Array(0..<0x20000) + Array(0xE0000..<0xE0200) + [0x10FFFF] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if set.contains(scalar) != (scalar.properties.canonicalCombiningClass != .notReordered) {
                Issue.record("U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func reservedNamesMatchAnyCaseAndAnyCanonicalFormButNoLongerValue() {
        let names = ReservedNames(["Café", "admin", "\u{212B}ngstrom"])
        #expect(names.contains("CAFÉ"))
        #expect(names.contains("cafe\u{301}"))
        #expect(names.contains("ADMIN"))
        #expect(names.contains("A\u{30A}ngstrom"))
        #expect(!names.contains("admins"))
        #expect(!names.contains(String(repeating: "a", count: 10_000)))
        #expect(names.sorted == ["admin", "café", "\u{212B}ngstrom".lowercased()])
    }

    /// Normal forms as Unicode's data gives them (Python's `unicodedata.normalize("NFKC", …)`).
    @Test(arguments: [
        ("ＡＢＣ", "ABC"), ("㍻", "\u{5E73}\u{6210}"), ("ﬁ", "fi"), ("\u{212B}", "\u{C5}"), ("A\u{30A}", "\u{C5}"),
        ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"), ("x²", "x2"), ("①", "1"), ("ｶﾞ", "\u{30AC}"),
        ("a\u{316}\u{301}", "\u{E1}\u{316}"), ("a\u{301}\u{316}", "\u{E1}\u{316}"), ("ẛ\u{323}", "\u{1E69}"),
        ("e\u{301}\u{301}\u{301}", "\u{E9}\u{301}\u{301}"), ("한국어", "한국어"), ("plain", "plain"), ("", ""),
        ("\u{FDFA}", "\u{635}\u{644}\u{649} \u{627}\u{644}\u{644}\u{647} \u{639}\u{644}\u{64A}\u{647} \u{648}\u{633}\u{644}\u{645}"),
    ])
    func compatibilityCompositionGivesUnicodesNormalForm(value: String, normal: String) {
        #expect(Array(CompatibilityComposition.normalize(value).unicodeScalars) == Array(normal.unicodeScalars))
    }

    /// What is normal on sight is what ICU leaves as it is: each such code point alone, and
    /// random strings of them (none composes with another), in NFKC and NFC; a mark or a jamo
    /// after them is not normal on sight.
    @Test func whatIsNormalOnSightICULeavesAsItIs() {
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x0410...0x044F, 0x4E00...0x9FFF, 0xAC00...0xD7A3]
        let scalars = ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        func icu(_ text: String, _ normalizer: (UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> Int32 {
            var text = text
            return text.withUTF8 { bytes in
                var normalized: UnsafeMutablePointer<UInt8>?
                defer { free(normalized) }
                return normalizer(bytes.baseAddress, Int32(bytes.count), &normalized)
            }
        }
        for scalar in scalars where icu(String(scalar), signup_nfkc) != 0 || icu(String(scalar), signup_nfc) != 0 {
            Issue.record("U+\(String(scalar.value, radix: 16)) is not its own normal form")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...6, using: &generator) { text.append(scalars.randomElement(using: &generator)!) }
            let string = String(text)
            #expect(CompatibilityComposition.isNormalOnSight(string))
            #expect(icu(string, signup_nfkc) == 0 && icu(string, signup_nfc) == 0, "\(string)")
        }
        #expect(!CompatibilityComposition.isNormalOnSight("и\u{306}") && !CompatibilityComposition.isNormalOnSight("\u{1100}\u{1161}"))
        #expect(!CompatibilityComposition.isNormalOnSight("\u{AC00}\u{11A8}") && !CompatibilityComposition.isNormalOnSight("Ａ"))
    }
}
