import Foundation
import SignupCore
@testable import SignupFormFiles
import SignupProtocol
import SignupTestSupport
import Testing

/// A JSON Schema in `--forms DIR` is a form kind (issue 55 §3, protocol.md §17): its properties the
/// fields, each keyword a field's value can be judged by a rule with a code of its own, and
/// SignupRPC's vocabulary for what a schema cannot say. `Examples/schema-member.jsonl` drives one
/// through the server, byte-compared; these tests pin the reading and its refusals.
@Suite struct SchemaFormTests {
    private func form(_ text: String, file: String = "test.schema.json") throws(FormFile.Problem) -> FormDefinition {
        try FormFile.parse(Array(text.utf8), file: file)
    }

    static func submit(username: String = "name", password: String = "secret") -> String {
        #"""
        "signupRPC":{"submit":{"action":"registerAccount","usernameField":"\#(username)","passwordField":"\#(password)",
          "messages":{"taken":{"code":"t","message":"Taken"},"refused":{"code":"r","message":"No"},"unavailable":{"code":"u","message":"Down"}}}}
        """#
    }

    static let submit = submit()

    @Test func theExampleReadsAsItsFieldsRulesAndCodes() throws {
        let data = try #require(FileManager.default.contents(atPath: "Examples/schema-forms/member.schema.json"))
        let definition = try FormFile.parse(Array(data), file: "member.schema.json")
        #expect(definition.kind == "member" && definition.title.template == "Join the club")
        #expect(definition.fields.map(\.name) == ["username", "email", "password", "age", "plan"])
        #expect(definition.fields.map(\.isRequired) == [true, true, true, true, false])
        #expect(definition.fields.map(\.input) == [.username, .email, .newPassword, .number, .text])
        #expect(definition.fields.map(\.isSecret) == [false, false, true, false, false])
        #expect(definition.fields.map { $0.rules.map(\.failure.code) } == [
            // signupRPC.profile: username adds signup-secure's identifier rules; nistPassword is its password.
            ["string.minLength", "string.maxLength", "string.pattern", "username.notIdentifier", "username.mixedScripts"], ["string.format.email"],
            ["password.tooShort", "password.tooLong", "password.common", "password.pattern", "password.likeUsername", "password.likeEmail",
             "password.dictionaryWord"],
            ["integer.type", "number.minimum", "number.maximum"], ["enum"],
        ])
        // signupRPC.checklist: each rule says what it asks for.
        #expect(definition.fields[0].rules.map { $0.requirement?.template } == [
            "At least {min} characters", "At most {max} characters", "In the expected form", "Letters, digits and punctuation, no spaces",
            "One alphabet (Latin may join Chinese, Japanese or Korean)",
        ])
        #expect(definition.fields[0].normalization == .usernameCaseMapped && definition.fields[2].remoteChecks.map(\.name) == ["breachedPassword"])
        #expect(definition.fields[0].rules[2].failure.template == "Start with a letter; then letters, digits and _")
        #expect(definition.fields[0].placeholder?.template == "ann_99" && definition.fields[0].remoteChecks.map(\.name) == ["usernameAvailability"])
        #expect(definition.fields[3].rules[1].failureParams == ["min": .int(16)])
        #expect(definition.translations["zh-Hans"]?["title"] == "加入俱乐部")
    }

    /// Kratos-style nesting: an object's properties are fields named by their pointer, required
    /// only when every object above them is.
    @Test func nestedObjectsGiveFieldsNamedByTheirPointer() throws {
        let definition = try form(#"""
            {"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
             "properties":{"traits":{"type":"object","properties":{"name":{"type":"string","minLength":1},"a/b":{"type":"string"},
               "secret":{"type":"string","minLength":15,"writeOnly":true}},"required":["name","secret"]},
               "optional":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]}},
             "required":["traits"],\#(Self.submit(username: "traits/name", password: "traits/secret"))}
            """#)
        #expect(definition.kind == "test")
        #expect(definition.fields.map(\.name) == ["traits/name", "traits/a~1b", "traits/secret", "optional/x"])
        #expect(definition.fields.map(\.isRequired) == [true, false, true, false])
        #expect(definition.fields[3].rules.map(\.failure.code) == ["boolean.type"])
    }

    @Test func whatAFormCannotReadIsRefusedWithItsPath() {
        let cases: [(String, String)] = [
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"type":"array"},"secret":{}},\#(Self.submit)}"#,
             "test.schema.json: $.properties.name.type: a field holds a string, a number, an integer or a boolean, not array"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"minLength":-1},"secret":{}},\#(Self.submit)}"#,
             "test.schema.json: $.properties.name.minLength: is not valid under draft 2020-12: must be at least 0"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{},"secret":{}}}"#,
             "test.schema.json: $.signupRPC.submit: is required: the action a submission takes"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"$ref":"other.json"},"secret":{}},\#(Self.submit)}"#,
             "test.schema.json: $.properties.name.$ref: a field's schema may only refer within its document (#/…)"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"pattern":"("},"secret":{}},\#(Self.submit)}"#,
             "test.schema.json: $.properties.name.pattern: does not compile"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"array",\#(Self.submit)}"#,
             "test.schema.json: $: a form's schema must be of type object, with properties"),
            (#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"signupRPC":{"color":1}},"secret":{}},\#(Self.submit)}"#,
             "test.schema.json: $.properties.name.signupRPC.color: is not allowed here (allowed: checklist, input, messages, normalization, profile, remoteChecks)"),
        ]
        for (text, expected) in cases {
            #expect(throws: FormFile.Problem.self) { try form(text) }
            do { _ = try form(text) } catch { #expect(error.description == expected) }
        }
    }

    /// The live codes are worded by the catalog in zh-Hans too.
    @Test func theKeywordsCodesAreTranslated() {
        let codes = ["string.minLength", "string.maxLength", "string.pattern", "string.format.email", "enum", "const", "boolean.type",
                     "integer.type", "number.type", "number.minimum", "number.exclusiveMinimum", "number.maximum",
                     "number.exclusiveMaximum", "number.multipleOf"]
        #expect(codes.filter { MessageCatalog.simplifiedChinese.render(Message($0, "untranslated")) == "untranslated" } == [])
        #expect(MessageCatalog.simplifiedChinese.render(Message("number.minimum", ""), ["min": .int(16)]) == "不能小于 16")
    }

    /// A recording keeps the schema whole, and replays without the folder.
    @Test func aSchemaFormsSessionRecordsAndReplays() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let input = try String(contentsOfFile: "Examples/schema-member.jsonl", encoding: .utf8)
        let run = try Subprocess.run(["--clock", "virtual", "--forms", "Examples/schema-forms", "--directory", "Examples/directories/secure.json",
                                      "--record", recording], input: input)
        let expected = try String(contentsOfFile: "Examples/schema-member.out.jsonl", encoding: .utf8)
        #expect(run.status == 0 && run.stdout == expected)
        let replay = try Subprocess.run(["replay", recording], input: "")
        #expect(replay.status == 0, "\(replay.stderr)")
        let recorded = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(!recorded.contains("mauve kettle"))
    }
}

extension SchemaFormTests {
    /// Kratos' quickstart shapes as they are (issue 55 §5): the traits are the fields, the marked
    /// identifier gets its check, a NIST password is added, and the submission registers.
    @Test func kratosIdentitySchemasReadAsSignUps() throws {
        func read(_ name: String) throws -> FormDefinition {
            let data = try #require(FileManager.default.contents(atPath: "Examples/schema-forms/\(name).schema.json"))
            return try FormFile.parse(Array(data), file: "\(name).schema.json")
        }
        let email = try read("kratos-email-password")
        #expect(email.fields.map(\.name) == ["traits/email", "traits/name/first", "traits/name/last", "password"])
        #expect(email.fields.map { $0.remoteChecks.map(\.name) } == [["unique"], [], [], ["breachedPassword"]])
        #expect(email.submit.kind == .registerAccount(usernameField: "traits/email", passwordField: "password"))
        let username = try read("kratos-username-email")
        #expect(username.fields.map(\.name) == ["traits/username", "traits/email", "password"])
        #expect(username.fields[0].normalization == .usernameCaseMapped && username.fields[0].remoteChecks.map(\.name) == ["usernameAvailability"])
        #expect(username.fields[0].rules.map(\.failure.code) == ["string.minLength", "string.maxLength", "username.notIdentifier"])
        #expect(username.fields[2].rules.map(\.failure.code) == [
            "password.tooShort", "password.tooLong", "password.common", "password.pattern", "password.likeIdentifier", "password.dictionaryWord",
        ])
        #expect(username.fields[2].rules[4].check == .notSimilarTo("traits/username"))
        let phone = try read("kratos-phone")
        #expect(phone.fields.map(\.name) == ["traits/phone", "password"] && phone.fields[0].remoteChecks.map(\.name) == ["unique"])
    }

    /// End to end on SQLite, on the real clock against a loopback range API: a full-width name
    /// signs up as `bea`, and its look-alikes are then refused.
    @Test func aKratosSchemaSignsUpAgainstSQLiteAndItsLookAlikeIsTaken() throws {
        let server = try LoopbackHTTPServer(SecureSignupTests.range)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let child = try InteractiveProcess(
            ["--clock", "real", "--debounce-ms", "0", "--forms", "Examples/schema-forms", "--store", folder.path("users.db")],
            environment: ["SIGNUP_PWNED_PASSWORDS_URL": server.url("")])
        func edit(_ form: String, _ field: String, _ value: String) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"\#(form)","field":"\#(field)","value":"\#(value)"}}"#
        }
        child.send([#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"kratos-username-email","form":"a"}}"#,
                    edit("a", "traits/username", "Ｂｅａ"), edit("a", "traits/email", "bea@example.com"),
                    edit("a", "password", SecureSignupTests.good)])
        _ = child.readLines { $0.contains(#""form":"a","enabled":true"#) }
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"a"}}"#])
        let signedUp = child.readLines { $0.contains(#""form":"a","state":"succeeded""#) || $0.contains(#""form":"a","state":"failed""#) }
        #expect(signedUp.last?.contains(#""state":"succeeded","account":{"username":"bea"}"#) == true)
        var verdicts: [String] = []
        for name in ["BEA", "b\u{435}a", "bÉa", "cora"] {
            child.send([#"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"kratos-username-email","form":"\#(name)"}}"#,
                        edit(name, "traits/username", name)])
            let lines = child.readLines { $0.contains(#""form":"\#(name)","field":"traits/username","state":"ok""#)
                || $0.contains(#""form":"\#(name)","field":"traits/username","state":"failed""#) }
            verdicts.append(String(lines.last?.components(separatedBy: #""code":""#)[1].prefix { $0 != "\"" } ?? ""))
        }
        #expect(verdicts == ["username.takenOrAlike", "username.takenOrAlike", "username.available", "username.available"])
        child.closeInput()
        _ = child.readToEnd()
        #expect(child.wait(atMost: 30) == 0)
    }
}

extension SchemaFormTests {
    /// Conditional fields (issue 55 §4): each keyword's presence for the values typed so far.
    @Test func theConditionsSayWhichFieldsAreShownAndRequired() throws {
        let data = try #require(FileManager.default.contents(atPath: "Examples/schema-forms/account.schema.json"))
        let definition = try FormFile.parse(Array(data), file: "account.schema.json")
        let names = ["accountType", "name", "company", "phone", "phoneCountry", "secondFactor", "password", "vatId", "smsPhone", "totpCode"]
        #expect(definition.fields.map(\.name) == names)
        let conditions = try #require(definition.conditions)
        #expect(conditions.conditionalFields.map { names[$0] } == ["company", "phoneCountry", "vatId", "smsPhone", "totpCode"])
        #expect(conditions.isRead.enumerated().filter(\.element).map { names[$0.offset] } == ["accountType", "company", "phone", "secondFactor"])
        func presence(_ values: [String: String]) -> [String] {
            conditions.presence(for: names.map { values[$0] ?? "" }).enumerated().map { index, presence in
                names[index] + (presence.shown ? (presence.required ? "!" : "") : " hidden")
            }
        }
        #expect(presence([:]) == ["accountType!", "name!", "company hidden", "phone", "phoneCountry", "secondFactor!", "password!",
                                  "vatId hidden", "smsPhone hidden", "totpCode hidden"])
        #expect(presence(["accountType": "business", "company": "Acme", "phone": "+4915112345678", "secondFactor": "sms"]) == [
            "accountType!", "name!", "company!", "phone", "phoneCountry!", "secondFactor!", "password!", "vatId!", "smsPhone!", "totpCode hidden"])
        // `if` is judged on typed values: "business" as the const, anything else leaves the else branch;
        // a hidden field counts as absent, so the company typed before hides its VAT number with it.
        #expect(presence(["accountType": "Business", "company": "Acme", "secondFactor": "totp"])[2] == "company hidden")
        #expect(presence(["accountType": "personal", "company": "Acme"])[7] == "vatId hidden")
        #expect(presence(["secondFactor": "totp"])[8...] == ["smsPhone hidden", "totpCode!"])
        #expect(presence(["secondFactor": "none"])[8...] == ["smsPhone hidden", "totpCode hidden"])
    }

    /// The object the values make, typed as each field's schema says, nested by pointer.
    @Test func theValuesMakeTheDocumentTheConditionsJudge() {
        let document = SchemaConditions.document(
            names: ["age", "newsletter", "traits/email", "traits/name/first", "note", "empty"], types: ["integer", "boolean", "string", "string", nil, "string"],
            values: ["42", "true", "ann@example.com", "Ann", "1e3", ""])
        var writer = JSONWriter()
        writer.json(document)
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == #"{"age":42,"newsletter":true,"traits":{"email":"ann@example.com","name":{"first":"Ann"}},"note":"1e3"}"#)
        let untyped = SchemaConditions.document(names: ["age"], types: ["integer"], values: ["forty"])
        #expect(untyped == .object([JSON.Member(key: "age", value: .string("forty"))]))
    }

    @Test func aOneOfWithoutADiscriminatorIsRefused() {
        let text = #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{},"secret":{}},"oneOf":[{"required":["name"]},{"required":["secret"]}],\#(Self.submit)}"#
        do {
            _ = try form(text)
            Issue.record("refused expected")
        } catch {
            #expect(error.description == "test.schema.json: $.oneOf[0]: a form reads a oneOf whose branches each give one member a const")
        }
    }
}

extension SchemaFormTests {
    /// At a tap the whole object is held to the schema (issue 55 §4): what the live rules do not
    /// judge (a root `not`, a `dependentSchemas` constraint on a field) refuses it; an error about
    /// a field shows on it, one about the whole fails the submission.
    @Test func theWholeObjectIsHeldToTheSchemaAtATap() throws {
        let folder = try TemporaryDirectory()
        let forms = try folder.forms("club.schema.json", #"""
            {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
             "properties":{"name":{"type":"string","minLength":1},"phone":{"type":"string"},"secret":{"type":"string","minLength":15,"writeOnly":true}},
             "required":["name","secret"],
             "not":{"properties":{"name":{"const":"admin"}},"required":["name"]},
             "dependentSchemas":{"phone":{"properties":{"phone":{"pattern":"^\\+1"}}}},
             \#(Self.submit)}
            """#)
        func edit(_ field: String, _ value: String, at time: Int) -> String {
            #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"c","field":"\#(field)","value":"\#(value)","at":\#(time)}}"#
        }
        let input = [
            #"{"jsonrpc":"2.0","method":"form.open","params":{"kind":"club","form":"c","at":0}}"#,
            edit("name", "admin", at: 10), edit("phone", "+4915112345678", at: 20), edit("secret", "mauve kettle drums at dawn", at: 30),
            #"{"jsonrpc":"2.0","id":1,"method":"form.submit","params":{"form":"c","at":100}}"#,
            edit("phone", "+15551234567", at: 200),
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"c","at":300}}"#,
            edit("name", "ann", at: 400),
            #"{"jsonrpc":"2.0","id":3,"method":"form.submit","params":{"form":"c","at":500}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"clock.advance","params":{"to":2000}}"#,
        ].joined(separator: "\n") + "\n"
        let validate = #"{"jsonrpc":"2.0","id":9,"method":"form.validate","params":{"kind":"club","values":{"name":"admin","phone":"+4915112345678","secret":"mauve kettle drums at dawn"}}}"#
        let output = try Subprocess.run(["--clock", "virtual", "--forms", forms], input: validate + "\n" + input)
        #expect(output.status == 0, "\(output.stderr)")
        // form.validate holds the whole object to the schema as a tap does.
        #expect(output.lines.first == #"{"jsonrpc":"2.0","id":9,"result":{"kind":"club","locale":"en","valid":false,"fields":[{"field":"name","state":"ok","code":"name.ok","params":{},"message":""},{"field":"phone","state":"failed","code":"schema.pattern","params":{"pattern":"^\\+1"},"message":"must match the pattern ^\\+1"},{"field":"secret","state":"ok","code":"secret.ok","params":{},"message":""}],"issues":[{"code":"schema.not","params":{},"message":"must not match the schema"}]}}"#)
        let from100 = output.lines.drop { !$0.contains(#""at":30}"#) }.dropFirst(2)
        #expect(Array(from100) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"c","field":"phone","state":"failed","code":"schema.pattern","params":{"pattern":"^\\+1"},"message":"must match the pattern ^\\+1","version":2,"at":100}}"#,
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"c","state":"failed","code":"schema.not","params":{},"message":"must not match the schema","at":100}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"c","enabled":false,"at":100}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"c","accepted":false,"reason":"invalid"}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"c","field":"phone","state":"ok","code":"phone.ok","params":{},"message":"","version":4,"at":200}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"c","enabled":true,"at":200}}"#,
            // Still about the whole: refused again, the submission's failure unchanged; submit stays
            // enabled, as after any failed submission, for the person to change something and retry.
            #"{"jsonrpc":"2.0","id":2,"result":{"form":"c","accepted":false,"reason":"invalid"}}"#,
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"c","state":"submitting","at":500}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"c","enabled":false,"at":500}}"#,
            #"{"jsonrpc":"2.0","id":3,"result":{"form":"c","accepted":true}}"#,
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"c","state":"succeeded","account":{"username":"ann"},"at":1500}}"#,
            #"{"jsonrpc":"2.0","id":4,"result":{"now":2000}}"#,
        ])
    }
}

extension SchemaFormTests {
    /// An OpenAPI 3.1 document is a form kind through `x-signupRPC.schema`, a pointer to a request
    /// body's schema; its references resolve in the whole document.
    @Test func anOpenAPIDocumentsRequestBodyIsAForm() throws {
        let data = try #require(FileManager.default.contents(atPath: "Examples/schema-forms/newsletter.openapi.json"))
        let definition = try FormFile.parse(Array(data), file: "newsletter.openapi.json")
        #expect(definition.kind == "newsletter" && definition.title.template == "Subscribe to the newsletter")
        #expect(definition.fields.map(\.name) == ["name", "email", "frequency", "password"])
        #expect(definition.fields[1].rules.map(\.failure.code) == ["string.maxLength", "string.format.email"])
        #expect(definition.fields[2].initialValue == "weekly")
        let cases: [(String, String)] = [
            (#"{"openapi":"3.1.0","paths":{}}"#, "api.openapi.json: $.x-signupRPC: must be an object, not null"),
            (#"{"openapi":"3.1.0","x-signupRPC":{"schema":"/paths/~1nowhere"}}"#, "api.openapi.json: $.x-signupRPC.schema: names nothing in the document"),
            (#"{"openapi":"3.1.0","x-signupRPC":{"schema":"paths"}}"#,
             "api.openapi.json: $.x-signupRPC.schema: must be a JSON Pointer into the document, such as /paths/~1signup/post/requestBody/content/application~1json/schema"),
        ]
        for (text, expected) in cases {
            do {
                _ = try FormFile.parse(Array(text.utf8), file: "api.openapi.json")
                Issue.record("refused expected: \(expected)")
            } catch {
                #expect(error.description == expected)
            }
        }
    }
}

extension SchemaFormTests {
    /// `format` is an annotation unless the form asks (`signupRPC.assertFormats`); e-mail is
    /// always its rule.
    @Test func formatsAreRulesOnlyWhereTheFormAsks() throws {
        func definition(asserting: Bool) throws -> FormDefinition {
            try form(#"""
                {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
                 "properties":{"name":{"format":"email"},"secret":{"type":"string","minLength":15,"writeOnly":true},
                   "born":{"type":"string","format":"date"},"site":{"type":"string","format":"uri"},"odd":{"type":"string","format":"color"}},
                 \#(Self.submit.replacingOccurrences(of: "\"signupRPC\":{", with: "\"signupRPC\":{\"assertFormats\":\(asserting),"))}
                """#)
        }
        #expect(try definition(asserting: false).fields.map { $0.rules.map(\.failure.code) } == [["string.format.email"], ["string.minLength"], [], [], []])
        let asserted = try definition(asserting: true)
        #expect(asserted.fields.map { $0.rules.map(\.failure.code) } == [
            ["string.format.email"], ["string.minLength"], ["string.format.date"], ["string.format.uri"], [],
        ])
        let localized = LocalizedForm(definition: asserted, catalog: .simplifiedChinese)
        let verdicts = localized.localResults(for: ["born": "2023-02-29", "site": "example.com"], budget: MatchBudget())
        #expect(verdicts.fields[2...3].map { "\($0.code) \($0.message)" } == ["string.format.date 不是有效的日期", "string.format.uri 不是有效的URI"])
    }
}
