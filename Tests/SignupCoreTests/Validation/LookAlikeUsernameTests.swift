import CICU
import Testing
@testable import SignupBackends
@testable import SignupCore

/// Look-alike usernames (issue 38 §3): UTS #39 skeletons and restriction levels through ICU, and
/// the PRECIS UsernameCaseMapped profile.
@Suite struct LookAlikeUsernameTests {
    @Test(arguments: [
        ("paypal", "pаypal"),  // Cyrillic а
        ("paypal", "PayPal"), ("paypal", "paypa1"), ("paypal", "pay\u{0440}al"),  // Cyrillic р
        ("scope", "ѕсоре"),  // all Cyrillic
        ("alpha", "\u{0251}lpha"),  // Latin alpha
        ("vikos", "νikos"),  // Greek nu
        ("modern", "rnodern"), ("joe", "ｊｏｅ"),  // fullwidth
        ("café", "cafe\u{0301}"),  // combining acute
        // Issue 54: look-alikes that differ by case around the skeleton.
        ("GOOGLE", "G00GLE"), ("google", "G00GLE"), ("google", "googIe"), ("llama", "IIama"), ("KEY", "ΚΕΥ"), ("key", "ΚΕΥ"),
    ])
    func theseLookAlike(name: String, alike: String) {
        #expect(ConfusableSkeleton.of(name) == ConfusableSkeleton.of(alike))
    }

    @Test(arguments: [("paypal", "paypals"), ("张伟", "张玮"), ("иван", "иванов"), ("ann", "anne"), ("café", "cafe")])
    func theseDoNot(name: String, other: String) {
        #expect(ConfusableSkeleton.of(name) != ConfusableSkeleton.of(other))
    }

    @Test(arguments: [
        // (name, level, admitted)
        ("paypal", ScriptRestriction.highlyRestrictive, true), ("pаypal", .highlyRestrictive, false), ("pаypal", .moderatelyRestrictive, false),
        ("张伟", .highlyRestrictive, true), ("张伟", .singleScript, true), ("张伟", .ascii, false),
        ("иван", .highlyRestrictive, true), ("ελένη", .highlyRestrictive, true), ("ελένηx", .highlyRestrictive, false),
        ("山田たろう", .highlyRestrictive, true), ("tanaka山田", .highlyRestrictive, true), ("tanaka山田", .singleScript, false),
        ("ivanиван", .minimallyRestrictive, true), ("ann", .ascii, true),
        ("a\u{0301}\u{0301}", .minimallyRestrictive, false),  // one mark twice, shown as once
    ])
    func restrictionLevels(name: String, level: ScriptRestriction, admitted: Bool) {
        #expect(level.admits(name) == admitted)
    }

    /// ASCII is judged without ICU's checker: every level admits it, as the checker says of each
    /// ASCII code point, controls and space included, alone and between letters.
    @Test(arguments: ScriptRestriction.allCases)
    func asciiIsWithinEveryLevelAsICUSays(level: ScriptRestriction) {
        for byte in UInt8(0)..<0x80 {
            for name in [String(UnicodeScalar(byte)), "a\(UnicodeScalar(byte))b"] {
                var bytes = Array(name.utf8)
                let checker = signup_exceeds_restriction_level(&bytes, Int32(bytes.count), level.cLevel)
                #expect(checker == 0, "ICU: \(byte)")
                #expect(level.admits(name) == true)
            }
        }
    }

    @Test(arguments: [
        ("Ann", "ann"), ("ＪＯＥ", "joe"), ("ｊｏｅ", "joe"), ("cafe\u{0301}", "café"), ("ΣΟΦΙΑ", "σοφια"), ("张伟", "张伟"), ("ｶ", "カ"),
        // An ideograph beyond the BMP keeps the marks after it (Foundation's NFC made U+01D1 of it).
        ("\u{2004F}\u{030C}\u{030B}", "\u{2004F}\u{030C}\u{030B}"),
    ])
    func usernameCaseMapped(input: String, mapped: String) {
        #expect(FieldDefinition.Normalization.usernameCaseMapped.apply(to: input) == mapped)
    }

    @Test(arguments: [
        ("ann_lee-1", true), ("张伟", true), ("ann lee", false), ("ann\u{3000}lee", false), ("ann☃", false), ("né", true),
        // Issue 54: RFC 8264 §9.17, HasCompat: a compatibility decomposition is disallowed.
        ("𝐩𝐚𝐲𝐩𝐚𝐥", false), ("ﬁnance", false), ("ℌello", false), ("ǅemal", false), ("x²", false), ("\u{2126}", false),
        // Single-script names in any script stay allowed.
        ("иван", true), ("ελένη", true), ("山田たろう", true), ("محمد", true), ("דוד", true), ("김민준", true), ("राम", true),
        // RFC 5892's exceptions and contextual rules.
        ("straße", true), ("col·lecció", true), ("a·b", false), ("\u{0640}", false),
        ("क्\u{200D}ष", true), ("a\u{200D}b", false), ("\u{0661}\u{0662}", true), ("\u{0661}\u{06F2}", false),
        ("ア・イ", true), ("a・b", false),
        // Unassigned, controls, default ignorables, old Hangul jamo.
        ("a\u{0378}", false), ("a\u{0007}", false), ("a\u{00AD}b", false), ("\u{1100}\u{1161}", false),
        // An ASCII space or control refuses a name with letters beyond ASCII too, wherever it stands.
        ("张 伟", false), ("张伟\u{7F}", false), ("\tné", false), ("né\n", false),
    ])
    func precisIdentifierClass(name: String, admitted: Bool) {
        #expect(CharacterClass.precisIdentifier.admits(name) == admitted)
    }

    /// The ranges PRECIS admits without deriving each code point's property (ASCII7, the CJK
    /// Unified Ideographs, the Hangul syllables) are valid by the derivation, every code point.
    @Test func theRangesAdmittedAtSightAreValidByTheDerivation() {
        let ranges: [ClosedRange<UInt32>] = [0x21...0x7E, 0x4E00...0x9FFF, 0xAC00...0xD7A3]
        let notValid = ranges.joined().filter { PRECISIdentifierClass.derivedProperty(of: Unicode.Scalar($0)!) != .valid }
        #expect(notValid.map { String($0, radix: 16) } == [])
        #expect(ranges.joined().allSatisfy { PRECISIdentifierClass.property(of: Unicode.Scalar($0)!) == .valid })
        #expect(PRECISIdentifierClass.property(of: "\u{3007}") == .valid && PRECISIdentifierClass.property(of: "\u{303B}") == .disallowed)
    }

    /// Every fullwidth form of ASCII (U+FF01–U+FF5E) decomposes to the character 0xFEE0 below it,
    /// as the username's mapping takes it without asking ICU.
    @Test func everyFullwidthFormOfASCIIDecomposesToItsCharacter() {
        for value in UInt32(0xFF01)...0xFF5E {
            let scalar = Unicode.Scalar(value)!
            #expect(UsernameCaseMapped.asciiOfFullwidth(scalar).map(String.init) == CompatibilityComposition.normalize(String(scalar)))
        }
        #expect(UsernameCaseMapped.asciiOfFullwidth("\u{FF5F}") == nil && UsernameCaseMapped.asciiOfFullwidth("A") == nil)
        #expect(UsernameCaseMapped.normalize("ｐａｙｐａｌ") == "paypal" && UsernameCaseMapped.normalize("Ｐａｙ－ｐａｌ＿１") == "pay-pal_1")
    }

    @Test func aMigrationKeepsTheFirstOfEachSkeletonAndReportsTheRest() {
        let sorted = LookAlikeUsernames(accounts: [(1, "paypal"), (2, "ann"), (3, "pаypal"), (4, "PAYPA1"), (5, "张伟")])
        #expect(sorted.holders.map(\.account) == [1, 2, 5])
        #expect(sorted.pairs == [.init(kept: "paypal", alike: "pаypal"), .init(kept: "paypal", alike: "PAYPA1")])
    }
}
