import CICU
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
        /// At least this many Unicode code points (of the value as rules see it: declare the
        /// field's `nfkc` normalisation to count as NIST SP 800-63B advises).
        case minCodePoints(Int)
        /// At most this many Unicode code points.
        case maxCodePoints(Int)
        /// The whole value must not be on the list of common passwords (case-insensitively).
        case notCommonPassword(PasswordList)
        /// The value must not be one unit repeated, nor a run along the alphabet, the digits or a
        /// keyboard row (`PasswordPatterns`).
        case notRepetitiveOrSequential
        /// The value must not be built on a dictionary word (`DictionaryWords`).
        case notDictionaryWord
        /// The value must not be too similar to another field's (`PasswordSimilarity`).
        case notSimilarTo(String)
        /// The value must not mix scripts beyond this restriction level (`ScriptRestriction`).
        case scriptRestriction(ScriptRestriction)
        /// The value must be one of these, exactly (code point by code point): a JSON Schema
        /// form's `enum` or `const`.
        case oneOf([String])
        /// The value, read as a JSON number, must meet this (`NumberRule`).
        case number(NumberRule)
        /// The value must be of this JSON Schema `format` (`StringFormat`: `date`, `uuid`, …).
        case format(String)
    }

    public var check: Check
    public var failure: Message
    /// What the rule asks for, said positively ("At least {min} code points"), with the failure's
    /// params: a frontend lists a field's requirements as a checklist (`FormDescription.Field`).
    public var requirement: Message?

    public init(_ check: Check, failure: Message, requirement: Message? = nil) {
        self.check = check
        self.failure = failure
        self.requirement = requirement
    }

    /// The other fields this rule reads.
    public var dependencies: [String] { check.dependencies }

    /// The params of the failure's message: the bound or field the rule names (fixed per rule).
    public var failureParams: [String: JSONValue] {
        switch check {
        case .minLength(let minimum), .minCodePoints(let minimum): return ["min": .int(Int64(minimum))]
        case .maxLength(let maximum), .maxCodePoints(let maximum): return ["max": .int(Int64(maximum))]
        case .equalsField(let other), .notSimilarTo(let other): return ["field": .string(other)]
        case .notCommonPassword(let list): return ["count": .int(Int64(list.count))]
        case .number(let rule): return rule.params
        default: return [:]
        }
    }
}

extension Rule.Check {
    var dependencies: [String] {
        switch self {
        case .equalsField(let other), .notSimilarTo(let other): return [other]
        case .anyOf(let alternatives): return alternatives.flatMap { $0.flatMap(\.dependencies) }
        default: return []
        }
    }
}

extension Rule.Check {
    /// Why this check cannot run on this machine, naming what to install; nil when it can. A
    /// field fails with code `rule.unavailable` in place of the rule's failure; this text is for
    /// the operator (`FormDefinition.missingRequirements`), never shown in a form.
    public var missingRequirement: String? {
        switch self {
        case .notCommonPassword(let list): return list.problem
        case .scriptRestriction:
            return signup_icu_is_installed() == 1 ? nil : "ICU cannot be loaded (Debian: apt-get install libicu72)"
        case .anyOf(let alternatives): return alternatives.lazy.flatMap { $0 }.compactMap(\.missingRequirement).first
        default: return nil
        }
    }

    /// Whether `pattern` compiles as a `pattern` check's regular expression (ICU syntax).
    public static func isValidPattern(_ pattern: String) -> Bool {
        CompiledPattern.named(pattern) != nil
    }
}

extension Rule.Check {
    /// The other fields this check compares a value with by how alike they are (`notSimilarTo`).
    public var fieldsComparedByLikeness: [String] {
        switch self {
        case .notSimilarTo(let other): [other]
        case .anyOf(let alternatives): alternatives.flatMap { $0.flatMap(\.fieldsComparedByLikeness) }
        default: []
        }
    }
}

extension FormDefinition {
    /// What this machine lacks for each rule that cannot run, for the operator's log at start-up:
    /// one line a rule, naming the kind, the field, the rule's code and what to install. Asking
    /// loads nothing (ICU is looked for, not loaded, until a form needs it).
    public var missingRequirements: [String] {
        fields.flatMap { field in
            field.rules.compactMap { rule in
                rule.check.missingRequirement.map {
                    "form kind \(kind), field \(field.name): rule \(rule.failure.code) fails every value (rule.unavailable): \($0)"
                }
            }
        }
    }
}
