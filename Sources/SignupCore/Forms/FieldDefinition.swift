import Foundation

/// One field of a form: its local rules, its remote checks, its messages, and how a
/// frontend presents it (label, placeholder, input kind).
public struct FieldDefinition: Hashable, Sendable {
    public var name: String
    /// What the field is called on screen.
    public var label: Message
    /// A hint shown in the empty field; nil for none.
    public var placeholder: Message?
    /// The kind of control a frontend draws for it.
    public var input: InputKind
    /// When true an empty value is `empty` (never `ok`); when false an empty value is accepted.
    public var isRequired: Bool
    /// Checked in order at every edit; the first failure is the field's result.
    public var rules: [Rule]
    /// Asked in order once the value passes every rule and has been quiet for each check's
    /// debounce interval; the first that rejects is the field's result.
    public var remoteChecks: [RemoteCheck]
    /// Shown while the value is empty.
    public var emptyMessage: Message
    /// Shown when every rule passes and there is no remote check.
    public var successMessage: Message
    /// Secret values (passwords) are never echoed in any output.
    public var isSecret: Bool
    /// Applied to the value before every rule, comparison and submission.
    public var normalization: Normalization
    /// A longer explanation a frontend may show under the field (a schema's `description`); nil for none.
    public var help: Message?
    /// The value a form opens with when none is given (a schema's `default`); nil for empty.
    public var initialValue: String?
    /// The only values the field takes, for a frontend to offer (a schema's `enum`, `const` or
    /// `boolean`); nil for a field that takes any text its rules allow.
    public var choices: [String]?

    /// How a value is normalised before it is judged or submitted.
    public enum Normalization: String, Hashable, Sendable {
        case none
        /// Unicode compatibility composition, so look-alike forms compare (and hash) equal.
        case nfkc
        /// The PRECIS UsernameCaseMapped profile (RFC 8265 §3.3): width mapped, lower-cased, NFC.
        case usernameCaseMapped

        @inline(__always)
        func apply(to value: String) -> String {
            switch self {
            case .none: return value
            case .nfkc: return CompatibilityComposition.normalize(value)
            case .usernameCaseMapped: return UsernameCaseMapped.normalize(value)
            }
        }
    }

    public init(
        name: String,
        isRequired: Bool = true,
        rules: [Rule] = [],
        remoteCheck: RemoteCheck? = nil,
        remoteChecks: [RemoteCheck] = [],
        emptyMessage: Message? = nil,
        successMessage: Message? = nil,
        isSecret: Bool = false,
        normalization: Normalization = .none,
        label: Message? = nil,
        placeholder: Message? = nil,
        input: InputKind? = nil
    ) {
        self.name = name
        self.label = label ?? Message("\(name).label", Self.words(of: name))
        self.placeholder = placeholder
        self.input = input ?? (isSecret ? .password : .text)
        self.isRequired = isRequired
        self.rules = rules
        self.remoteChecks = (remoteCheck.map { [$0] } ?? []) + remoteChecks
        self.emptyMessage = emptyMessage ?? Message("\(name).empty", "")
        self.successMessage = successMessage ?? Message("\(name).ok", "")
        self.isSecret = isSecret
        self.normalization = normalization
    }

    /// The value as rules see it.
    public func normalized(_ value: String) -> String {
        normalization.apply(to: value)
    }

    /// The most rules a checklist field may have: its results for every set of failing rules are
    /// rendered up front (2^8 of them at most).
    public static let maxRequirements = 8

    /// Whether the field is a checklist: every rule states its requirement, so a frontend lists
    /// them and ticks each as it is met (`params.unmet` of a failure).
    public var hasChecklist: Bool {
        !rules.isEmpty && rules.allSatisfy { $0.requirement != nil }
    }

    /// The field's `unique` check, if it has one.
    public var uniqueCheck: RemoteCheck? {
        remoteChecks.first { $0.kind.type.claimsTheValue }
    }

    /// A value (as rules see it) as `unique` compares it: an e-mail address (a field with the
    /// `email` rule) by `EmailAddress.folded`, anything else lower-cased.
    public func comparable(_ value: String) -> String {
        rules.contains { $0.check == .emailAddress } ? EmailAddress.folded(value) : AccountFields.fold(value)
    }

    /// The longest value the rules accept, in characters as people see them: the tightest
    /// `maxLength` rule; nil when no rule bounds the length (the server's limit still applies).
    public var maxLength: Int? {
        rules.compactMap { rule -> Int? in
            switch rule.check {
            // A code point is at most one character.
            case .maxLength(let bound), .maxCodePoints(let bound): return bound
            default: return nil
            }
        }.min()
    }

    /// A field name as words, the label of a field that has none: `repeatedPassword` → "Repeated password".
    static func words(of name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase, !text.isEmpty {
                text += " " + character.lowercased()
            } else if character == "-" || character == "_" {
                text += " "
            } else if text.isEmpty {
                text += character.uppercased()
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The other fields whose values this field's rules and remote checks read, each once, in
    /// order of first use.
    public var dependencies: [String] {
        var names: [String] = []
        for name in rules.flatMap(\.dependencies) + remoteChecks.flatMap(\.reads) where !names.contains(name) { names.append(name) }
        return names
    }
}
