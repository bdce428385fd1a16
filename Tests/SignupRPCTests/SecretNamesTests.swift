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
}
