import SignupCore

/// What the trace and the recording may write of a message: one redaction for both, decided on
/// the decoded message (so a field named `pass\u0077ord` is `password`), erring towards masking.
///
/// A message in which no string and no member name names a secret (a secret field of any kind,
/// or a word such as `password` or `token`) is kept whole. In any other message every string is
/// masked except those the server can show harmless: `jsonrpc`, `method` and `id`; and in
/// `params`, what the method's type says is shown (`RequestType.parameterRoles`): identifiers,
/// numbers, and the value of a field that is secret in no kind. The value of a
/// secret field there is a secret value, which each writer replaces its own way (`[secret]` in
/// the trace, a placeholder in the recording); the value of a field no kind has, named like a
/// secret, is masked. Member names are kept; numbers are masked (to `0`) where a field's value or
/// an unknown member stands.
package struct SecretRedaction: Sendable {
    /// What a masked string reads.
    package static let mask = "[secret]"
    /// Words that name a secret wherever they appear in a name or a string, in lower case.
    private static let secretWords = ["password", "passwd", "passphrase", "token", "secret"]
    private static let secretWordsUTF8 = secretWords.map { Array($0.utf8) }

    /// Every secret field name of any kind, as written and in lower case; the lower-case ones
    /// also as UTF-8 when ASCII, and as they are when not.
    private let secretFieldNames: Set<String>
    private let secretNames: Set<String>
    private let asciiSecretNamesUTF8: [[UInt8]]
    private let hasNonASCIISecretName: Bool
    /// The names of the remote checks of every secret field of any kind.
    private let checksOfSecretFields: Set<String>
    /// Every field name of any kind, and as UTF-8.
    private let fieldNames: Set<String>
    private let fieldNamesUTF8: [[UInt8]]
    /// The secret names in lower case and the secret words, as UTF-8, for `mayMentionSecret(inRaw:)`.
    private let namesUTF8: [[UInt8]]

    /// The redaction of messages to forms of these kinds.
    package init(forms: [FormDefinition]) {
        let fields = forms.flatMap(\.fields)
        secretFieldNames = Set(fields.filter(\.isSecret).map(\.name))
        secretNames = Set(secretFieldNames.map { $0.lowercased() })
        asciiSecretNamesUTF8 = secretNames.sorted().filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
        hasNonASCIISecretName = asciiSecretNamesUTF8.count < secretNames.count
        checksOfSecretFields = Set(fields.filter(\.isSecret).flatMap { $0.remoteChecks.map(\.name) })
        fieldNames = Set(fields.map(\.name))
        fieldNamesUTF8 = fieldNames.sorted().map { Array($0.utf8) }
        namesUTF8 = (secretNames.sorted() + Self.secretWords).map { Array($0.utf8) }
    }

    /// Whether some kind has a secret field of this name.
    package func isSecretField(named name: String) -> Bool {
        secretFieldNames.contains(name)
    }

    /// Whether what a remote check named `check` sends as `input` (`CheckQuestion.inputs`: `value`
    /// for the field checked, a read field by its name) is a secret field's value in some kind.
    package func isSecret(input: String, ofCheck check: String) -> Bool {
        input == "value" ? checksOfSecretFields.contains(check) : secretFieldNames.contains(input)
    }

    /// Whether a value of the field named by these bytes is masked whatever the form: a field no
    /// kind has, named like a secret (a misspelt `Password`).
    package func masksValue(ofFieldNamed name: UnsafeRawBufferPointer) -> Bool {
        !fieldNamesUTF8.contains { $0.count == name.count && $0.elementsEqual(name) }
            && namesSecret(String(decoding: name, as: UTF8.self))
    }

    /// Whether a line's bytes may name a secret once decoded: false only for a line of ASCII
    /// without escapes in which no secret name or word appears in any letter case.
    package func mayMentionSecret(inRaw line: UnsafeBufferPointer<UInt8>) -> Bool {
        if !Self.isASCII(line) || line.contains(UInt8(ascii: "\\")) { return true }
        return namesUTF8.contains { Self.holds($0, foldingASCIILettersOf: line) }
    }

    /// Whether `bytes` hold `word` (UTF-8, in lower case) once their ASCII letters are folded to
    /// lower case: one pass, no allocation.
    private static func holds(_ word: [UInt8], foldingASCIILettersOf bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !word.isEmpty, bytes.count >= word.count else { return false }
        return word.withUnsafeBufferPointer { word in
            for start in 0...(bytes.count - word.count) where folded(bytes[start]) == word[0] {
                var matched = 1
                while matched < word.count, folded(bytes[start + matched]) == word[matched] { matched += 1 }
                if matched == word.count { return true }
            }
            return false
        }
    }

    /// Whether `text` holds one of `secretWords` in any letter case: an ASCII text searched as it
    /// is, folding as it goes, any other lowercased first, both by their UTF-8 bytes.
    private static func holdsSecretWord(_ text: String) -> Bool {
        var text = text
        if !text.withUTF8(isASCII) { text = text.lowercased() }
        return text.withUTF8 { bytes in secretWordsUTF8.contains { holds($0, foldingASCIILettersOf: bytes) } }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Where a field's value stands: its name, and the form's id and kind as the message names them.
    package struct Place: Hashable, Sendable {
        package var field: String
        package var form: String?
        package var kind: String?
    }

    /// `message` (or batch) redacted: `secretValue` gives a secret field's value's replacement,
    /// or nil when the field at that place is not secret (its value is then kept, unless the
    /// field is one no kind has, named like a secret).
    package func redacting(_ message: JSON, secretValue: (_ text: String, _ place: Place) -> String?) -> JSON {
        if case .array(let elements) = message {
            return .array(elements.map { redacting($0, secretValue: secretValue) })
        }
        guard mentionsSecret(message) else { return message }
        guard case .object(let members) = message, Self.hasUniqueKeys(members) else { return Self.masked(message) }
        let method: String? = if case .string(let name)? = message["method"] { name } else { nil }
        return .object(members.map { member in
            switch member.key {
            case "jsonrpc", "method", "id": member
            case "params": JSON.Member(key: member.key, value: redacting(params: member.value, of: method, secretValue))
            default: JSON.Member(key: member.key, value: Self.masked(member.value))
            }
        })
    }

    /// Whether any name or string in `json` names or may name a secret.
    package func mentionsSecret(_ json: JSON) -> Bool {
        switch json {
        case .string(let text): return namesSecret(text)
        case .array(let elements): return elements.contains(where: mentionsSecret)
        case .object(let members): return members.contains { namesSecret($0.key) || mentionsSecret($0.value) }
        case .null, .bool, .number: return false
        }
    }

    /// Whether a member of this name in what a backend gave (an account, in a message out or an
    /// answer) holds a secret: a name with a word that names secrets in it, in any case
    /// (`token`, `accessToken`, `password_hash`).
    package static func namesSecretMember(_ name: String) -> Bool {
        holdsSecretWord(name)
    }

    /// Whether `text` is a secret field's name, or holds a word that names secrets, in any case.
    func namesSecret(_ text: String) -> Bool {
        if Self.holdsSecretWord(text) { return true }
        // An ASCII text is a lower-case ASCII name byte for byte once folded; it may equal
        // another name only as Unicode equates them (canonically), which `==` decides.
        var text = text
        let isASCIIName: Bool? = text.withUTF8 { bytes in
            guard Self.isASCII(bytes) else { return nil }
            return asciiSecretNamesUTF8.contains { $0.count == bytes.count && Self.holds($0, foldingASCIILettersOf: bytes) }
        }
        if isASCIIName == true { return true }
        return (isASCIIName == nil || hasNonASCIISecretName) && secretNames.contains(text.lowercased())
    }

    /// The params as their method's type says (`RequestType.parameterRoles`): a param of no
    /// role, and every param of a method not registered, is masked.
    private func redacting(params: JSON, of method: String?, _ secretValue: (String, Place) -> String?) -> JSON {
        guard case .object(let members) = params, Self.hasUniqueKeys(members) else { return Self.masked(params) }
        let roles = method.flatMap { Messages.parameterRoles[$0] } ?? [:]
        let identifier = { (key: String) -> String? in
            if roles[key] != nil, case .string(let text)? = params[key] { text } else { nil }
        }
        let (form, kind, field) = (identifier("form"), identifier("kind"), identifier("field"))
        return .object(members.map { member in
            let value: JSON = switch (roles[member.key], member.value) {
            case (.identifier?, .string), (.number?, .number): member.value
            case (.fieldValue?, .string(let text)):
                if let field { .string(fieldValue(text, at: Place(field: field, form: form), secretValue)) } else { Self.masked(member.value) }
            case (.fieldValues(let ofOpenForm)?, .object(let values)):
                ofOpenForm ? redacting(values: values, form: form, kind: kind, secretValue)
                    : redacting(values: values, form: nil, kind: kind ?? FormDefinition.signup.kind, secretValue)
            default: Self.masked(member.value)
            }
            return JSON.Member(key: member.key, value: value)
        })
    }

    /// `form.open`'s `values` or `record`: each field's value by its field.
    private func redacting(values: [JSON.Member], form: String?, kind: String?, _ secretValue: (String, Place) -> String?) -> JSON {
        guard Self.hasUniqueKeys(values) else { return Self.masked(.object(values)) }
        return .object(values.map { member in
            guard case .string(let text) = member.value else { return JSON.Member(key: member.key, value: Self.masked(member.value)) }
            return JSON.Member(key: member.key, value: .string(fieldValue(text, at: Place(field: member.key, form: form, kind: kind), secretValue)))
        })
    }

    /// A field's value as written: replaced when secret, masked when of a field no kind has named
    /// like a secret, kept otherwise.
    private func fieldValue(_ text: String, at place: Place, _ secretValue: (String, Place) -> String?) -> String {
        if let replaced = secretValue(text, place) { return replaced }
        return !fieldNames.contains(place.field) && namesSecret(place.field) ? Self.mask : text
    }

    /// Every string in `json` masked and every number made `0`; names, booleans and nulls kept.
    package static func masked(_ json: JSON) -> JSON {
        switch json {
        case .string: return .string(mask)
        case .number: return .number("0")
        case .array(let elements): return .array(elements.map(masked))
        case .object(let members): return .object(members.map { JSON.Member(key: $0.key, value: masked($0.value)) })
        case .null, .bool: return json
        }
    }

    private static func hasUniqueKeys(_ members: [JSON.Member]) -> Bool {
        // A message's few members are compared pair by pair, rather than hashed into a set.
        guard members.count > 16 else {
            return members.indices.allSatisfy { index in !members[..<index].contains { $0.key == members[index].key } }
        }
        var seen = Set<String>()
        return members.allSatisfy { seen.insert($0.key).inserted }
    }

    /// The names of fields whose value some kind of `definitions` asks its backend about as a
    /// name, so that questions, answers and messages out may carry a secret value too.
    package static func namesAskedAbout(in definitions: [FormDefinition]) -> Set<String> {
        Set(definitions.flatMap { definition in definition.fields.filter(definition.asksBackendAbout).map(\.name) })
    }
}
