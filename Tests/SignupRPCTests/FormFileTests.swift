import Foundation
import Testing
import SignupTestSupport
import SignupCore
@testable import SignupServer
@testable import SignupFormFiles
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Custom form files: the example works, and each kind of bad definition is refused with its JSON path.
@Suite struct FormFileTests {
    private static let valid = """
        {"kind":"pin","fields":[
          {"name":"user","rules":[{"characters":"asciiAlphanumerics","code":"user.ascii","message":"ASCII only"}]},
          {"name":"pin","secret":true,"rules":[{"pattern":"[0-9]{4}","code":"pin.format","message":"Four digits"}]}],
         "submit":{"action":"registerAccount","usernameField":"user","passwordField":"pin",
           "messages":{"taken":{"code":"t","message":"Taken"},"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
        """

    private func problem(_ text: String) -> String? {
        do throws(FormFile.Problem) {
            _ = try FormFile.parse(Array(text.utf8), file: "f.json")
            return nil
        } catch {
            return "\(error.path): \(error.reason)"
        }
    }

    private func replacing(_ old: String, with new: String) -> String {
        precondition(Self.valid.contains(old))
        return Self.valid.replacingOccurrences(of: old, with: new)
    }

    @Test func aValidDefinitionLoads() throws {
        let definition = try FormFile.parse(Array(Self.valid.utf8), file: "f.json")
        #expect(definition.kind == "pin")
        #expect(definition.fields.map(\.name) == ["user", "pin"])
        #expect(definition.fields[1].isSecret)
        #expect(definition.fields[1].rules.first?.check == .pattern("[0-9]{4}"))
    }

    @Test func presentationMembersLoadWithCodesForTheirTranslations() throws {
        let text = Self.valid
            .replacingOccurrences(of: #"{"kind":"pin","#, with: #"{"kind":"pin","title":"Get a PIN","#)
            .replacingOccurrences(of: #"{"name":"user","#, with: #"{"name":"user","label":"Your name","placeholder":"ASCII letters","input":"username","#)
            .replacingOccurrences(of: #""action":"registerAccount","#, with: #""action":"registerAccount","label":"Go","states":{"submitting":"Going"},"#)
        let definition = try FormFile.parse(Array(text.utf8), file: "f.json")
        #expect(definition.title == Message("title", "Get a PIN"))
        #expect(definition.fields[0].label == Message("user.label", "Your name"))
        #expect(definition.fields[0].placeholder == Message("user.placeholder", "ASCII letters"))
        #expect(definition.fields[0].input == .username)
        // Left out: the name in words, no placeholder, a password box for a secret field.
        #expect(definition.fields[1].label == Message("pin.label", "Pin"))
        #expect(definition.fields[1].placeholder == nil)
        #expect(definition.fields[1].input == .password)
        let standard = SubmitAction.Texts.standard(for: definition.submit.kind)
        #expect(definition.submit.texts == SubmitAction.Texts(
            label: Message("submit.label", "Go"), idle: standard.idle, submitting: Message("submit.submitting", "Going"),
            succeeded: standard.succeeded, failed: standard.failed))
        let plain = try FormFile.parse(Array(Self.valid.utf8), file: "f.json")
        #expect(plain.title == Message("title", "Pin"))
        #expect(plain.submit.texts == standard)
    }

    @Test func aSaveFriendDefinitionLoadsWithItsOwnMessages() throws {
        let text = """
            {"kind":"contact","fields":[{"name":"given"},{"name":"family"},{"name":"mobile","rules":[{"pattern":"[0-9]{7,15}","code":"m","message":"Digits"}]}],
             "submit":{"action":"saveFriend","firstNameField":"given","lastNameField":"family","phoneField":"mobile",
               "messages":{"notFound":{"code":"c.gone","message":"Gone"},"unauthorised":{"code":"c.no","message":"No"},
                           "conflict":{"code":"c.dup","message":"Dup"},"unavailable":{"code":"c.down","message":"Down"}}}}
            """
        let definition = try FormFile.parse(Array(text.utf8), file: "f.json")
        #expect(definition.submit.kind == .saveFriend(firstNameField: "given", lastNameField: "family", phoneField: "mobile"))
        #expect(definition.submit.message(for: .conflict) == Message("c.dup", "Dup"))
        #expect(definition.submit.savesRecords)
        #expect(problem(text.replacingOccurrences(of: #""conflict":{"code":"c.dup","message":"Dup"},"#, with: ""))
            == "$.submit.messages.conflict: is required")
    }

    @Test(arguments: [
        ("{", "$: not JSON: the JSON text ends too early at byte 1"),
        ("[]", "$: must be an object, not array"),
        (#"{"kind":"x"}"#, "$.fields: is required"),
        ("REPLACE:\"kind\":\"pin\"|\"kind\":\"\"", "$.kind: must be a non-empty string"),
        ("REPLACE:\"kind\":\"pin\"|\"kind\":\"pin\",\"colour\":\"red\"", "$.colour: is not allowed here (allowed: fields, kind, secondFactor, submit, title, translations)"),
        ("REPLACE:{\"name\":\"user\",|{\"name\":\"user\",\"input\":\"colour\",", #"$.fields[0].input: must be one of "text", "name", "username", "password", "newPassword", "email", "phone", "number""#),
        ("REPLACE:{\"name\":\"user\",|{\"name\":\"user\",\"input\":\"password\",", #"$.fields[0].input: is a password, so the field must be "secret": true"#),
        ("REPLACE:{\"name\":\"user\",|{\"name\":\"user\",\"label\":\"\",", "$.fields[0].label: must be a non-empty string"),
        ("REPLACE:{\"name\":\"user\",|{\"name\":\"user\",\"placeholder\":7,", "$.fields[0].placeholder: must be a non-empty string"),
        ("REPLACE:\"action\":\"registerAccount\"|\"action\":\"registerAccount\",\"states\":{\"done\":\"Done\"}", "$.submit.states.done: is not allowed here (allowed: failed, idle, submitting, succeeded)"),
        ("REPLACE:{\"name\":\"user\",|{\"name\":\"user\",\"required\":\"yes\",", "$.fields[0].required: must be true or false"),
        ("REPLACE:{\"characters\":\"asciiAlphanumerics\",|{\"characters\":\"emoji\",", #"$.fields[0].rules[0].characters: must be "alphanumerics", "asciiAlphanumerics", "asciiDigits", "precisIdentifier" or {"only": "…"}"#),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"pattern\":\"[0-9\",", "$.fields[1].rules[0].pattern: is not a valid regular expression"),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"pattern\":\"[0-9]{4}\",\"minLength\":4,", "$.fields[1].rules[0]: needs exactly one check (anyOf, characters, email, equalsField, maxCodePoints, maxLength, minCodePoints, minLength, notCommonPassword, notDictionaryWord, notOneOf, notRepetitiveOrSequential, notSimilarTo, pattern, scriptRestriction)"),
        ("REPLACE:\"code\":\"pin.format\",|", "$.fields[1].rules[0].code: is required"),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"minLength\":-1,", "$.fields[1].rules[0].minLength: must be a whole number of 0 or more"),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"equalsField\":\"nobody\",", "$.fields[1].rules[0].equalsField: form 'pin': 'pin' refers to field 'nobody', which the form does not define"),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"minLength\":4,\"code\":\"a\",\"message\":\"b\"},{\"anyOf\":[[{\"minLength\":1}],[{\"maxLength\":9},{\"equalsField\":\"nobody\"}]],", "$.fields[1].rules[1].anyOf[1][1].equalsField: form 'pin': 'pin' refers to field 'nobody', which the form does not define"),
        ("REPLACE:{\"pattern\":\"[0-9]{4}\",|{\"minLength\":4,\"code\":\"a\",\"message\":\"b\"},{\"equalsField\":\"pin\",", "$.fields[1].rules[1].equalsField: form 'pin': field 'pin' must equal itself, which always holds; name another field"),
        ("REPLACE:\"usernameField\":\"user\"|\"usernameField\":\"nobody\"", "$.submit.usernameField: form 'pin': 'submit' refers to field 'nobody', which the form does not define"),
        ("REPLACE:{\"name\":\"pin\"|{\"name\":\"user\"", "$.fields[1].name: form 'pin' defines field 'user' twice; field names must be unique"),
        ("REPLACE:\"passwordField\":\"pin\"|\"passwordField\":\"secret\"", "$.submit.passwordField: form 'pin': 'submit' refers to field 'secret', which the form does not define"),
        ("REPLACE:\"action\":\"registerAccount\"|\"action\":\"launch\"", "$.submit.action: must be \"registerAccount\", \"logIn\", \"saveFriend\" or \"http\""),
        ("REPLACE:\"action\":\"registerAccount\"|\"action\":\"saveFriend\"", "$.submit.usernameField: is not allowed here (allowed: action, firstNameField, label, lastNameField, messages, phoneField, states)"),
        ("REPLACE:\"action\":\"registerAccount\"|\"action\":\"logIn\"", "$.submit.messages.taken: is not allowed here (allowed: rateLimited, unavailable, wrongCredentials)"),
        ("REPLACE:\"unavailable\":{\"code\":\"u\",\"message\":\"Down\"}|\"unavailable\":{\"code\":\"u\"}", "$.submit.messages.unavailable.message: is required"),
        ("REPLACE:\"fields\":[|\"translations\":{\"fr\":\"oui\"},\"fields\":[", "$.translations.fr: must be an object of message codes"),
    ])
    func eachKindOfBadDefinitionIsRefusedWithItsPath(input: String, expected: String) {
        let text: String
        if input.hasPrefix("REPLACE:") {
            let parts = input.dropFirst("REPLACE:".count).split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            text = replacing(String(parts[0]), with: String(parts[1]))
        } else {
            text = input
        }
        #expect(problem(text) == expected)
    }

    @Test func aFolderMayNotRedefineAKind() throws {
        let folder = try TemporaryDirectory()
        try Data(Self.valid.utf8).write(to: URL(fileURLWithPath: folder.path("a.json")))
        try Data(Self.valid.utf8).write(to: URL(fileURLWithPath: folder.path("b.json")))
        #expect(throws: FormFile.Problem(file: folder.path("b.json"), path: "$.kind", reason: "the kind 'pin' is already defined")) {
            try FormFile.loadFolder(folder.url.path, builtInKinds: ["signup"])
        }
        #expect(throws: FormFile.Problem(file: folder.path("a.json"), path: "$.kind", reason: "the kind 'pin' is already defined")) {
            try FormFile.loadFolder(folder.url.path, builtInKinds: ["pin"])
        }
    }

    @Test func aBadDefinitionStopsStartUpWithExit78() throws {
        let folder = try TemporaryDirectory()
        try Data(#"{"kind":"x","fields":[{"name":"a","rules":[{"maxLength":"ten","code":"c","message":"m"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.path("bad.json")))
        let output = try Subprocess.run(["--forms", folder.url.path], input: "")
        #expect(output.status == 78)
        #expect(output.stderr == "signup-rpc: \(folder.path("bad.json")): $.submit: is required\n")
    }

    @Test func theExampleDefinitionIsOfferedByInitialize() throws {
        let output = try Subprocess.run(["--clock", "virtual", "--forms", Subprocess.packageRoot.appendingPathComponent("Examples/forms").path],
                                        input: #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"# + "\n")
        #expect(output.stdout.contains(#"{"kind":"phone-signup","fields":[{"name":"phone","required":true,"secret":false,"remoteCheck":"usernameAvailability"},{"name":"password","required":true,"secret":true,"remoteCheck":null}]}"#))
    }
}
