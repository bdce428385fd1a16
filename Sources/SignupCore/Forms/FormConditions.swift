/// Whether a field is shown and whether it must be filled in, as a form's conditions say for its
/// current values.
public struct FieldPresence: Hashable, Sendable {
    public var shown: Bool
    public var required: Bool

    public init(shown: Bool, required: Bool) {
        self.shown = shown
        self.required = required
    }
}

/// A field's presence together with where it belongs, as an event reports it.
public struct PresenceUpdate: Hashable, Sendable {
    public var field: String
    public var presence: FieldPresence

    public init(field: String, presence: FieldPresence) {
        self.field = field
        self.presence = presence
    }
}

/// A form's conditions (a JSON Schema form's `if`/`then`/`else`, `dependentRequired`,
/// `dependentSchemas`, a `oneOf` told apart by a `const` member): which fields are shown and
/// required for the values typed so far. A hidden field is never judged, never holds submit back,
/// and is submitted empty. Compared by identity: one object per definition read.
public final class FormConditions: Hashable, Sendable {
    /// The positions of the fields the conditions may show, hide, require or leave optional; the
    /// others keep their definition's presence.
    public let conditionalFields: [Int]
    /// For each field, whether the conditions read it: an edit of one of these asks again.
    public let isRead: [Bool]
    private let evaluate: @Sendable (_ values: [String]) -> [FieldPresence]

    /// `evaluate` gets every field's value by position (normalised as its rules read it) and
    /// returns every field's presence by position.
    public init(conditionalFields: [Int], isRead: [Bool], evaluate: @escaping @Sendable (_ values: [String]) -> [FieldPresence]) {
        self.conditionalFields = conditionalFields
        self.isRead = isRead
        self.evaluate = evaluate
    }

    /// Every field's presence for `values`, by position.
    public func presence(for values: [String]) -> [FieldPresence] {
        evaluate(values)
    }

    public static func == (left: FormConditions, right: FormConditions) -> Bool { left === right }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What a form's definition checks of the whole object at a tap, beyond each field's rules (a JSON
/// Schema form: the schema's verdict on the object the values make). An issue about a field is
/// shown on it, one about the whole fails the submission; either way the tap is refused.
/// Compared by identity.
public final class DocumentCheck: Hashable, Sendable {
    private let check: @Sendable (_ values: [String], _ shown: [Bool]) -> [ReportedIssue]

    /// `check` gets every field's value by position, normalised as its rules read it, and whether
    /// each is shown (a hidden field is left out of the object).
    public init(_ check: @escaping @Sendable (_ values: [String], _ shown: [Bool]) -> [ReportedIssue]) {
        self.check = check
    }

    /// The issues with these values; none when the whole is accepted.
    public func issues(values: [String], shown: [Bool]) -> [ReportedIssue] {
        check(values, shown)
    }

    public static func == (left: DocumentCheck, right: DocumentCheck) -> Bool { left === right }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
