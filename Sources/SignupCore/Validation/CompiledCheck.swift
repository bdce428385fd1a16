/// A rule's check made ready for one form: other fields named by position, reserved names folded
/// once. A keystroke then judges a value without looking a field up by name or lower-casing a list.
enum CompiledCheck: Sendable {
    case minLength(Int)
    case maxLength(Int)
    case allowedCharacters(CharacterClass)
    /// Nil for a pattern that does not compile, which fails every value.
    case pattern(CompiledPattern?)
    case notOneOf(ReservedNames)
    /// The position of the other field; nil for a name the form lacks, which reads as empty.
    case equalsField(Int?)
    case anyOf([[CompiledCheck]])
    case emailAddress
    case minCodePoints(Int)
    case maxCodePoints(Int)
    case notCommonPassword(PasswordList)
    case notRepetitiveOrSequential
    case notDictionaryWord
    /// The position of the other field; nil for a name the form lacks, which reads as empty.
    case notSimilarTo(Int?)
    case scriptRestriction(ScriptRestriction)
    case oneOf(Set<[UInt8]>)
    case number(NumberRule)
    case format(String)
    /// A rule whose library or list this machine lacks: it refuses every value.
    case cannotRun

    init(_ check: Rule.Check, in definition: FormDefinition) {
        self.init(check, indexOf: definition.index(of:))
    }

    /// `indexOf` places the other field a rule names; nil reads it as empty.
    init(_ check: Rule.Check, indexOf: (String) -> Int?) {
        switch check {
        case .minLength(let minimum): self = .minLength(minimum)
        case .maxLength(let maximum): self = .maxLength(maximum)
        case .allowedCharacters(let characterClass): self = .allowedCharacters(characterClass)
        case .pattern(let pattern): self = .pattern(CompiledPattern.named(pattern))
        case .notOneOf(let reserved): self = .notOneOf(ReservedNames(reserved))
        case .equalsField(let other): self = .equalsField(indexOf(other))
        case .emailAddress: self = .emailAddress
        case .minCodePoints(let minimum): self = .minCodePoints(minimum)
        case .maxCodePoints(let maximum): self = .maxCodePoints(maximum)
        case .notCommonPassword(let list): self = .notCommonPassword(list)
        case .notRepetitiveOrSequential: self = .notRepetitiveOrSequential
        case .notDictionaryWord: self = .notDictionaryWord
        case .notSimilarTo(let other): self = .notSimilarTo(indexOf(other))
        case .scriptRestriction(let level): self = .scriptRestriction(level)
        case .oneOf(let values): self = .oneOf(Set(values.map { Array($0.utf8) }))
        case .number(let rule): self = .number(rule)
        case .format(let name): self = .format(name)
        case .anyOf(let alternatives):
            self = .anyOf(alternatives.map { checks in checks.map { CompiledCheck($0, indexOf: indexOf) } })
        }
    }

    /// What this check says of `value`, as `Rule.Check` describes it; `valueAt` gives another
    /// field's normalised value by position, and patterns spend `budget`.
    func judge(_ value: String, valueAt: (Int) -> String, budget: MatchBudget) -> CheckOutcome {
        switch self {
        case .minLength(let minimum): return .passing(!value.hasFewerCharacters(than: minimum))
        case .maxLength(let maximum): return .passing(!value.hasMoreCharacters(than: maximum))
        case .allowedCharacters(let characterClass): return .passing(characterClass.admits(value))
        case .pattern(let pattern): return pattern?.judge(wholly: value, within: budget) ?? .fails
        case .notOneOf(let reserved): return .passing(!reserved.contains(value))
        case .equalsField(let other): return .passing(value == (other.map(valueAt) ?? ""))
        case .emailAddress: return .passing(EmailAddress.isValid(value))
        case .minCodePoints(let minimum): return .passing(!value.hasFewerCodePoints(than: minimum))
        case .maxCodePoints(let maximum): return .passing(!value.hasMoreCodePoints(than: maximum))
        case .notCommonPassword(let list): return .passing(!list.contains(value))
        case .notRepetitiveOrSequential: return .passing(!PasswordPatterns.isRepetitiveOrSequential(value))
        case .notDictionaryWord: return .passing(!DictionaryWords.contain(value))
        case .notSimilarTo(let other):
            guard let other else { return .passes }
            guard let similar = PasswordSimilarity.isTooSimilar(value, to: valueAt(other), within: budget) else { return .tooCostly }
            return .passing(!similar)
        // A level ICU cannot judge is refused; the field says why (`Rule.Check.missingRequirement`).
        case .scriptRestriction(let level): return .passing(level.admits(value) ?? false)
        case .cannotRun: return .fails
        case .oneOf(let values): return .passing(values.contains(Array(value.utf8)))
        case .number(let rule): return .passing(rule.admits(value))
        case .format(let name): return .passing(StringFormat.check(name, value) ?? true)
        case .anyOf(let alternatives):
            // Passes when one alternative passes; undecided when none does and one could not tell.
            var undecided = false
            for checks in alternatives {
                switch Self.judge(value, by: checks, valueAt: valueAt, budget: budget) {
                case .passes: return .passes
                case .tooCostly: undecided = true
                case .fails: break
                }
            }
            return undecided ? .tooCostly : .fails
        }
    }

    /// Whether what this check says of a value can be kept (`KeptOutcomes`) while that value and
    /// the other fields' values it reads stay as they are: it spends no budget, or it is a
    /// similarity measure, whose cost, known from the values alone, `paysAgain` pays.
    var outcomeCanBeKept: Bool {
        if case .notSimilarTo = self { return true }
        return !spendsBudget
    }

    /// Whether judging spends the message's `MatchBudget`.
    private var spendsBudget: Bool {
        switch self {
        case .pattern, .notSimilarTo: true
        case .anyOf(let alternatives): alternatives.contains { $0.contains(where: \.spendsBudget) }
        case .minLength, .maxLength, .allowedCharacters, .notOneOf, .equalsField, .emailAddress, .minCodePoints, .maxCodePoints,
             .notCommonPassword, .notRepetitiveOrSequential, .notDictionaryWord, .scriptRestriction, .oneOf, .number,
             .format, .cannotRun:
            false
        }
    }

    /// Whether this check reads the value of the field at `position`.
    func reads(field position: Int) -> Bool {
        switch self {
        case .equalsField(let other), .notSimilarTo(let other): other == position
        case .anyOf(let alternatives): alternatives.contains { $0.contains { $0.reads(field: position) } }
        default: false
        }
    }

    /// For an outcome kept from an earlier run: pays from `budget` what running the check again
    /// would, so that reusing it leaves the budget as running it would have; false when the
    /// budget cannot pay, in which case the value is judged `tooCostly`, as running it would be.
    func paysAgain(for value: String, valueAt: (Int) -> String, budget: MatchBudget) -> Bool {
        guard case .notSimilarTo(let other?) = self else { return true }
        let steps = PasswordSimilarity.steps(comparing: value, with: valueAt(other))
        return steps == 0 || budget.pay(steps)
    }

    /// Whether `value` passes, judged with a budget of its own.
    func passes(_ value: String, valueAt: (Int) -> String) -> Bool {
        judge(value, valueAt: valueAt, budget: MatchBudget()) == .passes
    }

    /// The first outcome of `checks`, in order, that is not `passes`; `passes` when there is none.
    static func judge(_ value: String, by checks: [CompiledCheck], valueAt: (Int) -> String, budget: MatchBudget) -> CheckOutcome {
        for check in checks {
            let outcome = check.judge(value, valueAt: valueAt, budget: budget)
            if outcome != .passes { return outcome }
        }
        return .passes
    }
}
