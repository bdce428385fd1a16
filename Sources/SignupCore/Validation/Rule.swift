/// One local check of a field's value, with the message shown when it fails.
public struct Rule: Hashable, Sendable {
    /// What a rule checks. Lengths count characters as people see them (grapheme clusters).
    public enum Check: Hashable, Sendable {
        case minLength(Int)
        case maxLength(Int)
        case allowedCharacters(CharacterClass)
        /// The value must equal another field's current value.
        case equalsField(String)
    }

    public var check: Check
    public var failure: Message

    public init(_ check: Check, failure: Message) {
        self.check = check
        self.failure = failure
    }

    /// The other fields this rule reads.
    public var dependencies: [String] {
        if case .equalsField(let other) = check { return [other] }
        return []
    }

    /// The failing result for `value`, or nil when the rule passes. `valueOf` reads other fields.
    public func evaluate(_ value: String, valueOf: (String) -> String) -> FieldResult? {
        switch check {
        case .minLength(let minimum):
            return value.count < minimum ? failure.result(.failed, ["min": .int(Int64(minimum))]) : nil
        case .maxLength(let maximum):
            return value.count > maximum ? failure.result(.failed, ["max": .int(Int64(maximum))]) : nil
        case .allowedCharacters(let characterClass):
            return characterClass.admits(value) ? nil : failure.result(.failed)
        case .equalsField(let other):
            return value == valueOf(other) ? nil : failure.result(.failed, ["field": .string(other)])
        }
    }
}
