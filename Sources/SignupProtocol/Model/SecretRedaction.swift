import SignupCore

/// What the trace and the recording may write of a message in: one redaction for both, decided
/// on the decoded message (so a field named `pass\u0077ord` is `password`) by the types of the
/// messages, never by the words a message holds.
///
/// `jsonrpc`, `method` and `id` are shown; in `params`, what the method's type says is shown
/// (`RequestType.parameterRoles`): identifiers, numbers, what the client says of itself, and the
/// value of a field that is secret in no kind. The value of a secret field there is a secret
/// value, which each writer replaces its own way (`[secret]` in the trace, a placeholder in the
/// recording); the value of a field no kind has is masked. Everything else (a param no role
/// names, every param of a method no type registers, a member beside these) is masked: strings
/// become `[secret]` and numbers `0`; member names, booleans and nulls are kept.
package struct SecretRedaction: Sendable {
    /// What a masked string reads.
    package static let mask = "[secret]"

    /// Every secret field name of any kind.
    private let secretFieldNames: Set<String>
    /// The names of the remote checks of every secret field of any kind.
    private let checksOfSecretFields: Set<String>
    /// Every field name of any kind.
    private let fieldNames: Set<String>

    /// The redaction of messages to forms of these kinds.
    package init(forms: [FormDefinition]) {
        let fields = forms.flatMap(\.fields)
        secretFieldNames = Set(fields.filter(\.isSecret).map(\.name))
        checksOfSecretFields = Set(fields.filter(\.isSecret).flatMap { $0.remoteChecks.map(\.name) })
        fieldNames = Set(fields.map(\.name))
    }

    /// Whether some kind has a secret field of this name.
    package func isSecretField(named name: String) -> Bool {
        secretFieldNames.contains(name)
    }

    /// Whether some kind has a field of this name.
    package func isField(named name: String) -> Bool {
        fieldNames.contains(name)
    }

    /// Whether what a remote check named `check` sends as `input` (`CheckQuestion.inputs`: `value`
    /// for the field checked, a read field by its name) is a secret field's value in some kind.
    package func isSecret(input: String, ofCheck check: String) -> Bool {
        input == "value" ? checksOfSecretFields.contains(check) : secretFieldNames.contains(input)
    }

    /// Where a field's value stands: its name, and the form's id and kind as the message names them.
    package struct Place: Hashable, Sendable {
        package var field: String
        package var form: String?
        package var kind: String?
    }

    /// `message` (or batch) redacted: `secretValue` gives a secret field's value's replacement,
    /// or nil when the field at that place is not secret (its value is then kept, unless no kind
    /// has the field).
    package func redacting(_ message: JSON, secretValue: (_ text: String, _ place: Place) -> String?) -> JSON {
        switch message {
        case .array(let elements):
            return .array(elements.map { redacting($0, secretValue: secretValue) })
        case .object(let members):
            // With a member named twice, no one method's type is known: its params are masked whole.
            let method: String? = if Self.hasUniqueKeys(members), case .string(let name)? = message["method"] { name } else { nil }
            return .object(members.map { member in
                switch member.key {
                case "jsonrpc", "method", "id": member
                case "params": JSON.Member(key: member.key, value: redacting(params: member.value, of: method, secretValue))
                default: JSON.Member(key: member.key, value: Self.masked(member.value))
                }
            })
        default:
            return Self.masked(message)
        }
    }

    /// Whether a member of this name in what a backend gave (an account, in a message out or an
    /// answer) holds a secret: a name with a word that names secrets in it, in any case
    /// (`token`, `accessToken`, `password_hash`).
    /// Judged on UTF-8 bytes, so a word followed by a combining mark (`token\u{301}`) still counts.
    package static func namesSecretMember(_ name: String) -> Bool {
        var name = name
        if let found = name.withUTF8({ isASCII($0) ? holdsSecretWord(foldingASCIILettersOf: $0) : nil }) { return found }
        return Array(name.lowercased().utf8).withUnsafeBufferPointer { holdsSecretWord(foldingASCIILettersOf: $0) }
    }

    /// Whether a message's bytes may hold a member that `namesSecretMember` names: false only for
    /// ASCII without escapes in which no member name (a string followed by `:`) holds a word for
    /// a secret in any letter case (no other text lowers to one).
    package static func mayNameSecretMember(in message: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isASCII(message), !message.contains(UInt8(ascii: "\\")) else { return true }
        // Without escapes, every quote opens or closes a string.
        var index = 0
        while let open = message[index...].firstIndex(of: UInt8(ascii: "\"")) {
            guard let close = message[(open + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return true }
            var next = close + 1
            while next < message.count, message[next] == UInt8(ascii: " ") { next += 1 }
            if next < message.count, message[next] == UInt8(ascii: ":"),
               holdsSecretWord(foldingASCIILettersOf: UnsafeBufferPointer(rebasing: message[(open + 1)..<close])) {
                return true
            }
            index = close + 1
        }
        return false
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { $0 >= 0x80 }
    }

    /// Whether `bytes` hold one of `secretWords` once their ASCII letters are lowered: one pass,
    /// the words starting at a byte compared only where it is the first letter of one.
    private static func holdsSecretWord(foldingASCIILettersOf bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte }
        for start in bytes.indices {
            let first = folded(bytes[start])
            guard startsSecretWord[Int(first)] else { continue }
            for word in secretWords where word[0] == first && bytes.count - start >= word.count {
                if (1..<word.count).allSatisfy({ folded(bytes[start + $0]) == word[$0] }) { return true }
            }
        }
        return false
    }

    /// By byte: whether a word of `secretWords` starts with it.
    private static let startsSecretWord: [Bool] = (0...255).map { byte in secretWords.contains { $0[0] == byte } }

    /// Words that name a secret in a member of a backend's own JSON, which has no type to say so.
    private static let secretWords = ["password", "passwd", "passphrase", "token", "secret"].map { Array($0.utf8) }

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
            case (.shown?, _), (.identifier?, .string), (.number?, .number): member.value
            case (.fieldValue?, .string(let text)):
                if let field { .string(fieldValue(text, at: Place(field: field, form: form), secretValue)) } else { Self.masked(member.value) }
            case (.fieldValues(let ofOpenForm)?, .object(let values)):
                ofOpenForm ? redacting(values: values, form: form, kind: kind, secretValue)
                    : redacting(values: values, form: nil, kind: kind ?? FormDefinition.signup.kind, secretValue)
            case (.record?, .object(let values)):
                redacting(values: values, form: form, kind: kind, identifiedBy: "id", secretValue)
            default: Self.masked(member.value)
            }
            return JSON.Member(key: member.key, value: value)
        })
    }

    /// `form.open`'s `values` or `record`: each field's value by its field, and a record's
    /// identifier (`identifiedBy`) shown when a string.
    private func redacting(values: [JSON.Member], form: String?, kind: String?, identifiedBy identifier: String? = nil,
                           _ secretValue: (String, Place) -> String?) -> JSON {
        guard Self.hasUniqueKeys(values) else { return Self.masked(.object(values)) }
        return .object(values.map { member in
            guard case .string(let text) = member.value else { return JSON.Member(key: member.key, value: Self.masked(member.value)) }
            if member.key == identifier { return member }
            return JSON.Member(key: member.key, value: .string(fieldValue(text, at: Place(field: member.key, form: form, kind: kind), secretValue)))
        })
    }

    /// A field's value as written: replaced when secret, masked when of a field no kind has,
    /// kept otherwise.
    private func fieldValue(_ text: String, at place: Place, _ secretValue: (String, Place) -> String?) -> String {
        if let replaced = secretValue(text, place) { return replaced }
        return fieldNames.contains(place.field) ? text : Self.mask
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
