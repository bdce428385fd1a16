/// A check of a field's value that needs a backend: whether a username is free, what the product's
/// own API says of an invite code. A field may declare several, asked in order; each is named,
/// and the name is what recordings, scripted directories and descriptions call it by.
public struct RemoteCheck: Hashable, Sendable {
    /// What is asked, and of whom: each kind's type (`CheckKind`) says what the system asks of it.
    public enum Kind: Hashable, Sendable {
        /// The directory's own question: is this username free?
        case usernameAvailability
        /// A request to an HTTP API the form declares.
        case http(HTTPCheck)
        /// The value is used in this field by no account registered with this form kind (compared
        /// as the field normalises it, case-insensitively); the registration claims it atomically.
        case unique
        /// The value, a password, is not among those known from breaches (Pwned Passwords).
        case breachedPassword(BreachedPasswordCheck)
    }

    /// Unique among the field's checks: `[A-Za-z0-9_.-]`, 1 to 64 characters; by default the kind's name.
    public var name: String
    public var kind: Kind
    /// How long the value must be quiet before this check is asked; nil for the form's interval.
    public var debounce: TimeSpan?
    /// Shown from the keystroke until the answer arrives (the first check's text, while any runs).
    public var validating: Message
    /// Shown when the backend accepts the value (the last check's text, once every check passed).
    public var passed: Message
    /// Shown when the backend rejects the value without saying why.
    public var rejected: Message
    /// Shown when the backend cannot be reached or fails.
    public var unavailable: Message

    public init(
        name: String? = nil, kind: Kind, debounce: TimeSpan? = nil, validating: Message, passed: Message, rejected: Message,
        unavailable: Message
    ) {
        self.name = name ?? kind.name
        self.kind = kind
        self.debounce = debounce
        self.validating = validating
        self.passed = passed
        self.rejected = rejected
        self.unavailable = unavailable
    }

    /// The other fields whose values this check sends, in the order its question carries them.
    public var reads: [String] { kind.type.reads }

    /// Whether `name` can name a check.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
    }
}

/// A remote check kept by one reference, so that a question carries it without copying its texts.
public final class SharedRemoteCheck: Sendable {
    public let check: RemoteCheck
    /// What the check's kind says of it (`RemoteCheck.Kind.type`), read once rather than at
    /// every question.
    public let answerer: CheckAnswerer
    public let countsAgainstBudgets: Bool
    public let claimsTheValue: Bool

    public init(_ check: RemoteCheck) {
        self.check = check
        let kind = check.kind.type
        answerer = kind.answerer
        countsAgainstBudgets = kind.countsAgainstBudgets
        claimsTheValue = kind.claimsTheValue
    }
}

/// What one remote check is asked: the field's value and the values of the other fields the check
/// reads, each as the field's rules read it (normalised), and who asks.
public struct CheckQuestion: Hashable, Sendable {
    /// Shared by every question of one check of one form kind: asking copies one reference.
    private let shared: SharedRemoteCheck
    public var value: String
    /// The values of `check.reads`, in that order.
    public var otherValues: [String]
    /// The form kind and the field that ask (what a `unique` check compares within).
    public var formKind: String
    public var field: String
    /// The value as a `unique` check compares it, when the asking field says how.
    private var comparable: String?
    /// Whether the client asking has asked few checks lately (`CheckBudgets.quietShare`): a store
    /// budget counted for every process then answers it even when spent. Not part of the question.
    public var isFromAQuietClient = false

    public init(check: RemoteCheck, value: String, otherValues: [String] = [], formKind: String = "", field: String = "") {
        self.init(shared: SharedRemoteCheck(check), value: value, otherValues: otherValues, formKind: formKind, field: field)
    }

    public init(
        shared: SharedRemoteCheck, value: String, otherValues: [String] = [], formKind: String = "", field: String = "",
        comparable: String? = nil
    ) {
        self.comparable = comparable
        self.shared = shared
        self.value = value
        self.otherValues = otherValues
        self.formKind = formKind
        self.field = field
    }

    public var check: RemoteCheck { shared.check }
    /// The check's kind and name, read without copying the check.
    public var checkKind: RemoteCheck.Kind { shared.check.kind }
    /// Who answers the check (its kind's `answerer`).
    public var answerer: CheckAnswerer { shared.answerer }
    public var checkName: String { shared.check.name }

    public static func == (lhs: CheckQuestion, rhs: CheckQuestion) -> Bool {
        lhs.value == rhs.value && lhs.otherValues == rhs.otherValues && lhs.formKind == rhs.formKind && lhs.field == rhs.field
            && (lhs.shared === rhs.shared || lhs.shared.check == rhs.shared.check)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(shared.check)
        hasher.combine(value)
        hasher.combine(otherValues)
        hasher.combine(formKind)
        hasher.combine(field)
    }

    /// The value as a `unique` check compares it: as the asking field says
    /// (`FieldDefinition.comparable`), or lower-cased.
    public var folded: String { comparable ?? AccountFields.fold(value) }

    /// What the question sends, by name: `value`, then each field the check reads.
    public var inputs: [String: String] {
        var inputs = ["value": value]
        for (field, value) in zip(shared.check.reads, otherValues) { inputs[field] = value }
        return inputs
    }

    /// The value of the named field as the question carries it: `value` for the checked field
    /// itself (`fieldName`), nil for a field the check does not read.
    public func value(of field: String, checkedField fieldName: String? = nil) -> String? {
        if field == "value" || field == fieldName { return value }
        guard let index = shared.check.reads.firstIndex(of: field), index < otherValues.count else { return nil }
        return otherValues[index]
    }
}
