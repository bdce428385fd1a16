import SignupCore
import Testing
@testable import SignupProtocol

/// Which members of a backend's own JSON name a secret (`SecretRedaction.namesSecretMember`):
/// judged on UTF-8 bytes, in any letter case. Messages in are judged by their types instead
/// (`SecretRolesTests`).
@Suite struct SecretNamesTests {
    @Test func aMemberNamesASecretWhenAWordForOneIsInItInAnyCase() {
        let secret = ["token", "accessToken", "PASSWORD_HASH", "newPassword", "passwd", "Passphrase", "client_secret",
                      "xTOKENx", "ÜberToken", "PASSWORDÄ", "token\u{301}"]
        let plain = ["username", "form", "tok en", "pass_word", "secrets".replacingOccurrences(of: "c", with: "k"), "PASSWÖRD",
                     "", "tokn", "\u{0}token".replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "o", with: "0")]
        #expect(secret.filter { !SecretRedaction.namesSecretMember($0) } == [])
        #expect(plain.filter(SecretRedaction.namesSecretMember) == [])
    }

    /// The trace's test before it parses a message out: only member names count, and whatever
    /// it cannot read plainly (escapes, text beyond ASCII) may name one.
    @Test func aMessageMayNameASecretMemberOnlyByAMemberName() {
        let judged = [
            #"{"method":"form.fieldChanged","params":{"field":"password","message":"Password acceptable"}}"#,
            #"{"result":{"account":{"token":"t-1"}}}"#, #"{"PASSWORD_hash" : "x"}"#, #"{"a":"b","c":{"client_Secret":1}}"#,
            #"{"a":"\u0074oken"}"#, #"{"name":"Zoë"}"#, #"{"a":"tokens are values here","b":["secret"]}"#, #"{"a":"unclosed"#,
        ].map { line in Array(line.utf8).withUnsafeBufferPointer(SecretRedaction.mayNameSecretMember(in:)) }
        #expect(judged == [false, true, true, true, true, true, false, true])
    }

    /// The letters a name must hold before it is searched for a word: each word's, exactly.
    @Test func theLetterMasksAreTheWordsLetters() {
        let words = ["passwd", "passphrase", "token", "secret"]
        let masks = words.map { $0.utf8.reduce(UInt32(0)) { $0 | SecretRedaction.SecretWordLetters.bit($1) } }
        #expect(masks == SecretRedaction.SecretWordLetters.masks)
        // `password` holds `passwd`'s letters, so its names pass too.
        #expect(Array("xPassWordy".utf8).withUnsafeBufferPointer(SecretRedaction.SecretWordLetters.mayBeIn))
    }

    /// The letter filter changes no answer: on random lines of member names and values built
    /// from pieces of secret words, the test agrees with judging every member name in full.
    @Test func theLetterFilterAgreesWithJudgingEveryName() {
        var random = SeededGenerator(seed: 58)
        let pieces = ["pass", "word", "wd", "phrase", "tok", "en", "sec", "ret", "PASS", "Tok", "x", "a", "s", "_", " ", "to", "ken"]
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            var members: [String] = []
            for _ in 0..<Int(random.next() % 5 + 1) {
                let name = (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
                let value = (0..<Int(random.next() % 3)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
                members.append("\"\(name)\"\(random.next() % 2 == 0 ? " " : ""):\"\(value)\"")
            }
            let line = "{" + members.joined(separator: ",") + "}"
            let names = members.map { String($0.dropFirst().prefix { $0 != "\"" }) }
            let expected = names.contains(where: SecretRedaction.namesSecretMember)
            let judged = Array(line.utf8).withUnsafeBufferPointer(SecretRedaction.mayNameSecretMember(in:))
            if judged != expected { disagreements.append(line) }
        }
        #expect(disagreements == [])
    }
}
