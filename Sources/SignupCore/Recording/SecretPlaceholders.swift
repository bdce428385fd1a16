/// Stand-ins for secrets (passwords, tokens) in a session recording. Each distinct secret gets
/// one placeholder, the same every time it recurs, so equal secrets stay equal (a repeated
/// password still matches) and different ones stay different. A placeholder has as many
/// characters as its secret, each of the same kind (lower case, upper case, digit, symbol,
/// space, other letters), never the secret's own at any position, and passes and fails exactly
/// the field's rules that the secret passes and fails. It depends only on the order secrets were
/// first seen and their shape, never on their characters, so it gives nothing else away.
public struct SecretPlaceholders {
    private var placeholders: [String: String] = [:]
    private var taken: Set<String> = []
    private var generator: SeededGenerator
    /// Secrets whose placeholder could not be made to pass and fail the same rules.
    public private(set) var approximations = 0

    public init(seed: UInt64 = 0x5EC2_E7ED) {
        generator = SeededGenerator(seed: seed)
    }

    /// The placeholder already given to `secret`, if any.
    public func existing(for secret: String) -> String? {
        placeholders[secret]
    }

    /// The placeholder for `secret`, judged by `rules` (a field's; other fields read as empty, as
    /// equality with them is kept by giving equal secrets equal placeholders).
    public mutating func placeholder(for secret: String, rules: [Rule] = []) -> String {
        if secret.isEmpty { return secret }
        if let known = placeholders[secret] { return known }
        let checks = rules.map { CompiledCheck($0.check, indexOf: { _ in nil }) }
        let verdicts = Self.verdicts(of: secret, checks)
        var chosen: String?
        for _ in 0..<64 {
            let candidate = reshaped(secret)
            if !taken.contains(candidate), Self.verdicts(of: candidate, checks) == verdicts {
                chosen = candidate
                break
            }
        }
        if chosen == nil {
            // A secret that fails a list of forbidden values is stood in for by another listed value.
            chosen = Self.listedValues(in: checks).first { listed in
                listed != secret.lowercased() && listed.count == secret.count && !taken.contains(listed)
                    && Self.verdicts(of: listed, checks) == verdicts
            }
        }
        let placeholder: String
        if let chosen {
            placeholder = chosen
        } else {
            approximations += 1
            // Short secrets can run out of distinct stand-ins of their shape; then one is shared.
            var candidate = reshaped(secret)
            for _ in 0..<1000 where taken.contains(candidate) { candidate = reshaped(secret) }
            placeholder = candidate
        }
        placeholders[secret] = placeholder
        taken.insert(placeholder)
        return placeholder
    }

    private static func verdicts(of value: String, _ checks: [CompiledCheck]) -> [Bool] {
        checks.map { $0.passes(value, valueAt: { _ in "" }) }
    }

    private static func listedValues(in checks: [CompiledCheck]) -> [String] {
        checks.flatMap { check -> [String] in
            switch check {
            case .notOneOf(let values): return values.sorted()
            case .anyOf(let alternatives): return listedValues(in: alternatives.flatMap { $0 })
            default: return []
            }
        }
    }

    /// Each character replaced by another of its kind.
    private mutating func reshaped(_ secret: String) -> String {
        var result = ""
        result.reserveCapacity(secret.utf8.count)
        for character in secret {
            result.append(substitute(for: character))
        }
        return result
    }

    private static let lower = Array("abcdefghijklmnopqrstuvwxyz")
    private static let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let digits = Array("0123456789")
    private static let symbols = Array("!#$%&*+-.:;=?@^_~")
    private static let otherLetters = Array("àáâäçèéêëìíîïñòóôöùúûüý")
    private static let otherSymbols = Array("§¶†‡•")

    private mutating func substitute(for character: Character) -> Character {
        let pool: [Character]
        if character.isWhitespace {
            return character
        } else if character.isASCII {
            if character.isLowercase { pool = Self.lower }
            else if character.isUppercase { pool = Self.upper }
            else if character.isNumber { pool = Self.digits }
            else { pool = Self.symbols }
        } else {
            pool = character.isLetter ? Self.otherLetters : Self.otherSymbols
        }
        while true {
            let pick = pool[Int(generator.next() % UInt64(pool.count))]
            if pick != character { return pick }
        }
    }
}
