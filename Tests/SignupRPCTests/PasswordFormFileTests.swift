import Foundation
import Testing
import SignupCore
@testable import SignupServer
@testable import SignupFormFiles
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// The NIST password and look-alike username rules in form files (issue 38): the example loads
/// with every rule in place, and each change the contract suite's schema refuses, the server
/// refuses too, naming the member.
@Suite struct PasswordFormFileTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/forms/nist-signup.json").path

    private func problem(_ text: String) -> String? {
        do throws(FormFile.Problem) {
            _ = try FormFile.parse(Array(text.utf8), file: Self.path)
            return nil
        } catch {
            return "\(error.path): \(error.reason)"
        }
    }

    @Test func theExampleLoadsWithItsChecklists() throws {
        let definition = try FormFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: Self.path))), file: Self.path)
        let password = try #require(definition.fields.first { $0.name == "password" })
        #expect(password.hasChecklist && password.normalization == .nfkc)
        #expect(password.rules.map(\.failure.code) == [
            "password.tooShort", "password.tooLong", "password.common", "password.pattern", "password.likeUsername", "password.likeEmail",
        ])
        guard case .notCommonPassword(let list) = password.rules[2].check else { Issue.record("no list"); return }
        #expect(list.count == 28)
        #expect(definition.fields[0].normalization == .usernameCaseMapped)
        #expect(definition.fields[0].rules[1].check == .scriptRestriction(.highlyRestrictive))
    }

    @Test(arguments: [
        (#"{ "minCodePoints": 15,"#, #"{ "minCodePoints": 15, "maxCodePoints": 64,"#, "$.fields[2].rules[0]: needs exactly one check"),
        (#""scriptRestriction": "highlyRestrictive""#, #""scriptRestriction": "latinOnly""#,
         #"$.fields[0].rules[1].scriptRestriction: must be one of "ascii", "singleScript", "highlyRestrictive", "moderatelyRestrictive", "minimallyRestrictive""#),
        (#""notCommonPassword": { "file": "../lists/common-passwords.txt" }"#, #""notCommonPassword": false"#,
         "$.fields[2].rules[2].notCommonPassword: must be an object"),
        (#""notCommonPassword": { "file": "../lists/common-passwords.txt" }"#, #""notCommonPassword": { "path": "x.txt" }"#,
         "$.fields[2].rules[2].notCommonPassword.path: is not allowed here (allowed: file)"),
        (#""notCommonPassword": { "file": "../lists/common-passwords.txt" }"#, #""notCommonPassword": { "file": "missing.txt" }"#,
         "$.fields[2].rules[2].notCommonPassword.file: cannot read the password list"),
        (#""notRepetitiveOrSequential": true"#, #""notRepetitiveOrSequential": 1"#, "$.fields[2].rules[3].notRepetitiveOrSequential: must be true"),
        (#""notSimilarTo": "username""#, #""notSimilarTo": """#, "$.fields[2].rules[4].notSimilarTo: must be a non-empty string"),
        (#""notSimilarTo": "username""#, #""notSimilarTo": "nickname""#, "$.fields[2].rules[4].notSimilarTo: form 'nist-signup': 'password' refers to field 'nickname'"),
        (#""requirement": "At least {min} characters""#, #""requirement": """#, "$.fields[2].rules[0].requirement: must be a non-empty string"),
        (#", "requirement": "At least {min} characters""#, "", "$.fields[2].rules: form 'nist-signup': field 'password' states the requirement of some rules but not all"),
        (#""normalization": "usernameCaseMapped""#, #""normalization": "precis""#, #"$.fields[0].normalization: must be "none", "nfkc" or "usernameCaseMapped""#),
        (#""characters": "precisIdentifier""#, #""characters": "identifier""#, "$.fields[0].rules[0].characters: must be"),
        (#""minCodePoints": 15"#, #""minCodePoints": 12"#,
         "$.fields[2].rules[0].minCodePoints: form 'nist-signup': secret field 'password' has minCodePoints 12; NIST SP 800-63B asks for at least 15"),
        (#""maxCodePoints": 64"#, #""maxCodePoints": 32"#, "$.fields[2].rules[1].maxCodePoints: form 'nist-signup': secret field 'password' has maxCodePoints 32"),
        (#""kind": "nist-signup","#, #""kind": "nist-signup", "secondFactor": "yes","#, "$.secondFactor: must be true or false"),
    ])
    func eachBadRuleIsRefusedWithItsPath(old: String, new: String, expected: String) throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(text.contains(old))
        let refused = problem(text.replacingOccurrences(of: old, with: new))
        #expect(refused?.hasPrefix(expected) == true, "\(refused ?? "accepted")")
    }

    @Test func aSecondFactorAllowsAMinimumOfEight() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
            .replacingOccurrences(of: #""kind": "nist-signup","#, with: #""kind": "nist-signup", "secondFactor": true,"#)
        #expect(problem(text.replacingOccurrences(of: #""minCodePoints": 15"#, with: #""minCodePoints": 8"#)) == nil)
        #expect(problem(text.replacingOccurrences(of: #""minCodePoints": 15"#, with: #""minCodePoints": 7"#))?
            .hasPrefix("$.fields[2].rules[0].minCodePoints: form 'nist-signup': secret field 'password' has minCodePoints 7; NIST SP 800-63B asks for at least 8") == true)
    }

    @Test func aRecordingKeepsANamedListWhole() throws {
        let folder = URL(fileURLWithPath: Self.path).deletingLastPathComponent().path
        let loaded = try FormFile.loadFolderWithDocuments(folder, builtInKinds: [])
        let nist = try #require(loaded.first { $0.definition.kind == "nist-signup" })
        guard case .array(let fields)? = nist.document["fields"], case .array(let rules)? = fields[2]["rules"] else {
            Issue.record("no rules")
            return
        }
        guard case .array(let passwords)? = rules[2]["notCommonPassword"]?["passwords"] else { Issue.record("no list"); return }
        #expect(passwords.count == 28 && passwords.first == .string("111111"))
        // Read back, as a replay reads it, the list is the same.
        let replayed = try FormFile.parse(nist.document, file: "recorded form 1")
        #expect(replayed.fields[2].rules[2].failureParams == ["count": .int(28)])
    }
}
