import Testing
@testable import SignupCore

/// The e-mail rule (issue 38 §4): the HTML standard's valid e-mail address, with internationalised
/// domains through ICU's UTS #46 processing, at most 254 characters.
@Suite struct EmailAddressTests {
    @Test(arguments: [
        "ann@example.com", "Ann.Lee+tag@Example.COM", "a@b", "user@localhost", "a..b@c.d", "x!#$%&'*+/=?^_`{|}~-@a-b.c9",
        "ann@bücher.de", "ann@例子.广告", "ann@ＥＸＡＭＰＬＥ.com", "ann@xn--bcher-kva.de",
        "a@" + String(repeating: "b", count: 63) + ".com",
    ])
    func theseAreValid(address: String) {
        #expect(EmailAddress.isValid(address))
    }

    @Test(arguments: [
        "", "ann", "@example.com", "ann@", "ann@@example.com", "ann@exa@mple.com", "an n@example.com", "ann@exa mple.com",
        "ann@-example.com", "ann@example-.com", "ann@example..com", "ann@.example.com", "ann@example.com.", "ann@exa_mple.com",
        "用户@例子.广告", "änn@example.com", "ann@xn--zzzz-.de", "ann@ab\u{200D}cd.com", "ann@example.com\u{0}",
        "a@" + String(repeating: "b", count: 64) + ".com",
    ])
    func theseAreNot(address: String) {
        #expect(!EmailAddress.isValid(address))
    }

    @Test func atMost254CharactersAndALongerValueCostsNoMore() {
        let domain = String(repeating: "abcdefghi.", count: 24) + "com"  // 243 characters
        let exactly = String(repeating: "x", count: 254 - domain.count - 1) + "@" + domain
        #expect(exactly.count == 254 && EmailAddress.isValid(exactly))
        #expect(!EmailAddress.isValid("x" + exactly))
        // A megabyte is refused by its length alone.
        #expect(!EmailAddress.isValid(String(repeating: "a", count: 1 << 20) + "@example.com"))
    }

    @Test func addressesCompareWithTheirDomainInASCIIAndInOneCase() {
        #expect(EmailAddress.folded("Ann@Bücher.DE") == "ann@xn--bcher-kva.de")
        #expect(EmailAddress.folded("ANN@xn--bcher-kva.de") == "ann@xn--bcher-kva.de")
        #expect(EmailAddress.folded("Ann@Example.com") == "ann@example.com")
        #expect(EmailAddress.folded("not an address") == "not an address")
        let field = FieldDefinition(name: "email", rules: [Rule(.emailAddress, failure: Message("e", "e"))])
        #expect(field.comparable("Ann@例子.广告") == "ann@xn--fsqu00a.xn--4rr70v")
        #expect(FieldDefinition(name: "nick").comparable("Ann@Bücher.DE") == "ann@bücher.de")
    }

    @Test func aFormRuleUsesIt() {
        let form = LocalizedForm(definition: try! FormDefinition(
            kind: "mail", fields: [FieldDefinition(name: "email", rules: [Rule(.emailAddress, failure: Message("email.invalid", "Not an e-mail address"))])],
            submit: SubmitAction(kind: .saveFriend(firstNameField: "email", lastNameField: "email", phoneField: "email"))))
        var effects = FormEffects()
        var state = FormReducer.opening(["ann@例子.广告"], in: form, budget: MatchBudget(), effects: &effects)
        #expect(form.results[state.fields[0].result].code == "email.ok")
        var events = ChangeEvents()
        FormReducer.reduce(&state, .edit(field: 0, value: "ann@", budget: MatchBudget()), in: form, events: &events, effects: &effects)
        #expect(form.results[state.fields[0].result].code == "email.invalid")
    }
}
