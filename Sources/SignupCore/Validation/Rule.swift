import Foundation

/// One local check of a field's value, with the message shown when it fails.
public struct Rule: Hashable, Sendable {
    /// What a rule checks (as `CompiledCheck` runs it). Lengths count characters as people see
    /// them (grapheme clusters).
    public enum Check: Hashable, Sendable {
        case minLength(Int)
        case maxLength(Int)
        case allowedCharacters(CharacterClass)
        /// The whole value must match the regular expression (ICU syntax), within a `MatchBudget`.
        case pattern(String)
        /// The value must not be one of these, compared case-insensitively.
        case notOneOf([String])
        /// The value must equal another field's current value.
        case equalsField(String)
        /// At least one alternative must pass, each alternative being checks that must all pass.
        case anyOf([[Check]])
        /// The value must be a valid e-mail address (`EmailAddress`): the HTML standard's syntax,
        /// an internationalised domain accepted, at most 254 characters.
        case emailAddress
    }

    public var check: Check
    public var failure: Message

    public init(_ check: Check, failure: Message) {
        self.check = check
        self.failure = failure
    }

    /// The other fields this rule reads.
    public var dependencies: [String] { check.dependencies }

    /// The params of the failure's message: the bound or field the rule names (fixed per rule).
    public var failureParams: [String: JSONValue] {
        switch check {
        case .minLength(let minimum): return ["min": .int(Int64(minimum))]
        case .maxLength(let maximum): return ["max": .int(Int64(maximum))]
        case .equalsField(let other): return ["field": .string(other)]
        default: return [:]
        }
    }
}

extension Rule.Check {
    var dependencies: [String] {
        switch self {
        case .equalsField(let other): return [other]
        case .anyOf(let alternatives): return alternatives.flatMap { $0.flatMap(\.dependencies) }
        default: return []
        }
    }
}

extension Rule.Check {
    /// Whether `pattern` compiles as a `pattern` check's regular expression (ICU syntax).
    public static func isValidPattern(_ pattern: String) -> Bool {
        CompiledPattern.named(pattern) != nil
    }
}
