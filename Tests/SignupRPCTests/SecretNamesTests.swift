import SignupCore
import Testing
@testable import SignupProtocol
@testable import SignupServer
@testable import SignupFormFiles

/// Which names and strings name a secret (`SecretRedaction.namesSecret`, `namesSecretMember`):
/// judged on UTF-8 bytes, in any letter case, as `lowercased()` and a Unicode search judged them.
@Suite struct SecretNamesTests {
    /// The built-in kinds, and a kind whose secret field's name is not ASCII.
    private static func redaction() throws -> SecretRedaction {
        let form = """
            {"kind":"geheim","fields":[{"name":"nutzer"},{"name":"Schlüssel","secret":true}],
             "submit":{"action":"registerAccount","usernameField":"nutzer","passwordField":"Schlüssel",
               "messages":{"taken":{"code":"t","message":"Taken"},"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
            """
        let custom = try FormFile.parse(Array(form.utf8), file: "geheim.json")
        return SecretRedaction(forms: FormCatalog.builtIn.definitions + [custom])
    }

    @Test func aMemberNamesASecretWhenAWordForOneIsInItInAnyCase() {
        let secret = ["token", "accessToken", "PASSWORD_HASH", "newPassword", "passwd", "Passphrase", "client_secret",
                      "xTOKENx", "ÜberToken", "PASSWORDÄ", "token\u{301}"]
        let plain = ["username", "form", "tok en", "pass_word", "secrets".replacingOccurrences(of: "c", with: "k"), "PASSWÖRD",
                     "", "tokn", "\u{0}token".replacingOccurrences(of: "t", with: "T").replacingOccurrences(of: "o", with: "0")]
        #expect(secret.filter { !SecretRedaction.namesSecretMember($0) } == [])
        #expect(plain.filter(SecretRedaction.namesSecretMember) == [])
    }

    @Test func aTextNamesASecretFieldInAnyCaseOrHoldsAWordForOne() throws {
        let redaction = try Self.redaction()
        let secret = ["password", "REPEATEDPASSWORD", "repeatedPassword", "Schlüssel", "SCHLÜSSEL", "schlüssel",
                      "my token", "Secret1"]
        let plain = ["username", "repeated", "Schlussel", "schluessel", "nutzer", "alice", "Schlüssel!", "passwor"]
        #expect(secret.filter { !redaction.namesSecret($0) } == [])
        #expect(plain.filter(redaction.namesSecret) == [])
    }

    @Test func aLineMayMentionASecretUnlessItIsASCIIWithoutAnyName() throws {
        let redaction = try Self.redaction()
        let judged = [#"{"field":"username","value":"al"}"#, #"{"field":"Password"}"#, #"{"x":"a\u0041"}"#,
                      #"{"x":"schlüssel"}"#, #"{"x":"PassWd"}"#, #"{"x":"tok"}"#].map { line in
            Array(line.utf8).withUnsafeBufferPointer { redaction.mayMentionSecret(inRaw: $0) }
        }
        #expect(judged == [false, true, true, true, true, false])
    }
}
