#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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

    /// The names of the remote checks of every secret field of any kind.
    private let checksOfSecretFields: Set<String>
    /// Every field name of any kind, and whether it is secret in some kind.
    private let isSecretByFieldName: [String: Bool]
    /// The same names, found by their bytes (`value(ofFieldNamed:)` on every keystroke), with
    /// what a value of each is by position.
    private let knownNames: KnownFieldNames
    private let valueByPosition: [FieldValue]

    /// The redaction of messages to forms of these kinds.
    package init(forms: [FormDefinition]) {
        let fields = forms.flatMap(\.fields)
        checksOfSecretFields = Set(fields.filter(\.isSecret).flatMap { $0.remoteChecks.map(\.name) })
        let isSecretByFieldName = Dictionary(fields.map { ($0.name, $0.isSecret) }, uniquingKeysWith: { $0 || $1 })
        self.isSecretByFieldName = isSecretByFieldName
        knownNames = KnownFieldNames(isSecretByFieldName.keys.sorted())
        valueByPosition = knownNames.names.map { isSecretByFieldName[$0] == true ? .secret : .shown }
    }

    /// Whether some kind has a secret field of this name.
    package func isSecretField(named name: String) -> Bool {
        isSecretByFieldName[name] == true
    }

    /// Whether some kind has a field of this name.
    package func isField(named name: String) -> Bool {
        isSecretByFieldName[name] != nil
    }

    /// What a value of the field of this name is, in one look-up: a secret when the field is
    /// secret in some kind, shown when some kind has it and none keeps it secret, masked when no
    /// kind has it.
    package func value(ofFieldNamed name: String) -> FieldValue {
        // Found by its bytes, or else by the string, which equal strings spelled otherwise match.
        if let found = name.utf8.withContiguousStorageIfAvailable({ knownNames.position(spelledBy: UnsafeRawBufferPointer($0)) }),
           let position = found {
            return valueByPosition[position]
        }
        return switch isSecretByFieldName[name] {
        case true?: .secret
        case false?: .shown
        case nil: .masked
        }
    }

    /// A plain `form.edit` as `redacting` gives its message, written without building the message:
    /// `jsonrpc`, `id`, `method`, then `params` (`form`, `field`, `value`, `at`), its value shown
    /// only when the field is secret in no kind and `mask` otherwise. Says what the value is.
    package func write(_ edit: borrowing FormEditLine, to writer: inout JSONWriter) -> FieldValue {
        let value = value(ofFieldNamed: edit.field)
        writer.verbatim(#"{"jsonrpc":"2.0""#)
        if let id = edit.id { writer.verbatim(#","id":"#); id.write(&writer) }
        writer.verbatim(#","method":"form.edit","params":{"#)
        // Its strings held no escapes as read, so hold nothing to escape.
        if let form = edit.form { writer.verbatim(#""form":"#); writer.string(readWithoutEscapes: form); writer.verbatim(",") }
        writer.verbatim(#""field":"#); writer.string(readWithoutEscapes: edit.field)
        writer.verbatim(#","value":"#)
        writer.string(readWithoutEscapes: value == .shown ? edit.value : Self.mask)
        if let at = edit.at { writer.verbatim(#","at":"#); writer.int(at) }
        writer.verbatim("}}")
        return value
    }

    package enum FieldValue {
        case secret, shown, masked
    }

    /// Whether what a remote check named `check` sends as `input` (`CheckQuestion.inputs`: `value`
    /// for the field checked, a read field by its name) is a secret field's value in some kind.
    package func isSecret(input: String, ofCheck check: String) -> Bool {
        input == "value" ? checksOfSecretFields.contains(check) : isSecretField(named: input)
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
        if let found = name.withUTF8({ $0.isASCII ? holdsSecretWord(foldingASCIILettersOf: $0) : nil }) { return found }
        return Array(name.lowercased().utf8).withUnsafeBufferPointer { holdsSecretWord(foldingASCIILettersOf: $0) }
    }

    /// Whether some member of `params`, at any depth, is one the trace hides in a message out:
    /// named for a secret (`namesSecretMember`) and holding more than a flag or null.
    package static func holdSecretMember(_ params: [String: JSONValue]) -> Bool {
        func holds(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let members): holdSecretMember(members)
            case .array(let elements): elements.contains(where: holds)
            default: false
            }
        }
        return params.contains { name, value in
            switch value {
            case .bool, .null: false
            default: namesSecretMember(name) || holds(value)
            }
        }
    }

    /// Whether a message's bytes may hold a member that `namesSecretMember` names: false only for
    /// ASCII without escapes in which no member name (a string followed by `:`) holds a word for
    /// a secret in any letter case (no other text lowers to one).
    package static func mayNameSecretMember(in message: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = message.baseAddress else { return false }
        if !message.isASCII || memchr(base, Int32(UInt8(ascii: "\\")), message.count) != nil { return true }
        // Without escapes, every quote opens or closes a string; a string whose closing quote is
        // followed (after spaces) by a colon is a member name. Only a name with every letter of
        // some secret word (`SecretWordLetters`) is searched for the word.
        func quote(from start: Int) -> Int? {
            guard start < message.count, let found = memchr(base + start, Int32(UInt8(ascii: "\"")), message.count - start) else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
        var position = 0
        while let open = quote(from: position) {
            guard let close = quote(from: open + 1) else { return true }
            var next = close + 1
            while next < message.count, message[next] == UInt8(ascii: " ") { next += 1 }
            if next < message.count, message[next] == UInt8(ascii: ":") {
                let name = UnsafeBufferPointer(rebasing: message[(open + 1)..<close])
                if SecretWordLetters.mayBeIn(name), holdsSecretWord(foldingASCIILettersOf: name) { return true }
            }
            position = close + 1
        }
        return false
    }

    /// The letters of each of `secretWords`: a name lacking some letter of every word holds none
    /// of them, and needs no search. Checked against the words by a test.
    enum SecretWordLetters {
        /// A bit for an ASCII letter in either case (other bytes share the bits, which only lets
        /// more names through to the search).
        @inline(__always)
        static func bit(_ byte: UInt8) -> UInt32 {
            1 &<< ((byte | 0x20) & 31)
        }

        /// `passwd`'s (which `password` holds too), `passphrase`'s, `token`'s and `secret`'s.
        static var masks: [UInt32] { [passwd, passphrase, token, secret] }
        private static var passwd: UInt32 { 0x0089_0012 }
        private static var passphrase: UInt32 { 0x000D_0122 }
        private static var token: UInt32 { 0x0010_C820 }
        private static var secret: UInt32 { 0x001C_0028 }

        static func mayBeIn(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            var letters: UInt32 = 0
            for byte in name { letters |= bit(byte) }
            return letters & passwd == passwd || letters & passphrase == passphrase || letters & token == token
                || letters & secret == secret
        }
    }

    /// Whether `bytes` hold one of `secretWords` once their ASCII letters are lowered. The words
    /// are lower-case letters, which `byte | 0x20` matches exactly in either case.
    private static func holdsSecretWord(foldingASCIILettersOf bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= shortestSecretWord else { return false }
        for start in 0...(bytes.count - shortestSecretWord) {
            let first = bytes[start] | 0x20
            guard first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"), secretWordInitials & (1 << (first - UInt8(ascii: "a"))) != 0 else { continue }
            for word in secretWords where word.utf8Start.pointee == first && bytes.count - start >= word.utf8CodeUnitCount {
                let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
                var matched = 1
                while matched < letters.count, bytes[start + matched] | 0x20 == letters[matched] { matched += 1 }
                if matched == letters.count { return true }
            }
        }
        return false
    }

    private static let shortestSecretWord = 5
    /// A bit for each letter a word of `secretWords` starts with, `a` the lowest.
    private static let secretWordInitials: UInt32 = secretWords.reduce(0) { $0 | 1 << ($1.utf8Start.pointee - UInt8(ascii: "a")) }

    /// Words that name a secret in a member of a backend's own JSON, which has no type to say so:
    /// lower-case ASCII letters, the shortest `shortestSecretWord` long.
    private static let secretWords: [StaticString] = ["password", "passwd", "passphrase", "token", "secret"]

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
        return isField(named: place.field) ? text : Self.mask
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
