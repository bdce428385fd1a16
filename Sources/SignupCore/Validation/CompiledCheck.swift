/// A rule's check made ready for one form: other fields named by position, reserved names folded
/// once. A keystroke then judges a value without looking a field up by name or lower-casing a list.
enum CompiledCheck: Sendable {
    case minLength(Int)
    case maxLength(Int)
    case allowedCharacters(CharacterClass)
    case pattern(String)
    /// Lower-cased.
    case notOneOf(Set<String>)
    /// The position of the other field; nil for a name the form lacks, which reads as empty.
    case equalsField(Int?)
    case anyOf([[CompiledCheck]])

    init(_ check: Rule.Check, in definition: FormDefinition) {
        self.init(check, indexOf: definition.index(of:))
    }

    /// `indexOf` places the other field a rule names; nil reads it as empty.
    init(_ check: Rule.Check, indexOf: (String) -> Int?) {
        switch check {
        case .minLength(let minimum): self = .minLength(minimum)
        case .maxLength(let maximum): self = .maxLength(maximum)
        case .allowedCharacters(let characterClass): self = .allowedCharacters(characterClass)
        case .pattern(let pattern): self = .pattern(pattern)
        case .notOneOf(let reserved): self = .notOneOf(Set(reserved.map { $0.lowercased() }))
        case .equalsField(let other): self = .equalsField(indexOf(other))
        case .anyOf(let alternatives):
            self = .anyOf(alternatives.map { checks in checks.map { CompiledCheck($0, indexOf: indexOf) } })
        }
    }

    /// Whether `value` passes, as `Rule.Check.passes` judges; `valueAt` gives another field's
    /// normalised value by position.
    func passes(_ value: String, valueAt: (Int) -> String) -> Bool {
        switch self {
        case .minLength(let minimum): return Self.characterCount(of: value) >= minimum
        case .maxLength(let maximum): return value.utf8.count <= maximum || Self.characterCount(of: value) <= maximum
        case .allowedCharacters(let characterClass): return characterClass.admits(value)
        case .pattern(let pattern): return RegexCache.matches(pattern, wholly: value)
        case .notOneOf(let reserved): return !reserved.contains(value.lowercased())
        case .equalsField(let other): return value == (other.map(valueAt) ?? "")
        case .anyOf(let alternatives):
            return alternatives.contains { checks in checks.allSatisfy { $0.passes(value, valueAt: valueAt) } }
        }
    }

    /// `value.count`, without breaking the value into characters when its bytes tell: an ASCII
    /// value has a character per byte, but for `\r\n`, which is one character.
    private static func characterCount(of value: String) -> Int {
        let utf8 = value.utf8
        let isPlainASCII = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
        }
        return isPlainASCII == true ? utf8.count : value.count
    }
}
