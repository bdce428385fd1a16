import Foundation
import Testing
@testable import SignupCore

@Suite struct CharacterClassTests {
    /// `alphanumerics` answers ASCII itself; it must agree with Foundation's set everywhere.
    @Test func alphanumericsAgreesWithFoundationsSet() {
        let samples = (0..<128).compactMap(Unicode.Scalar.init)
            + ["é", "ß", "中", "٣", "\u{0301}", "Ⅻ", "😀", "\u{00A0}", "_", "-", "\u{FFFD}"].map { $0.unicodeScalars.first! }
        for scalar in samples {
            #expect(CharacterClass.alphanumerics.admits(String(scalar)) == CharacterSet.alphanumerics.contains(scalar),
                    "U+\(String(scalar.value, radix: 16))")
        }
        #expect(CharacterClass.alphanumerics.admits("abc123"))
        #expect(!CharacterClass.alphanumerics.admits("abc 123"))
    }
}
