/// Stand-ins for secrets (passwords, tokens) in a session recording. Equal secrets get equal
/// placeholders (a repeated password still matches) and different ones different placeholders. A
/// placeholder differs from its secret, has as many characters, each of the same kind (lower case,
/// upper case, digit, symbol, space, other letters), and passes and fails exactly the field's
/// rules that the secret passes and fails. It shares with the secret only what those rules pin:
/// where no character of the secret need stay, none does; where a rule pins some (a pattern's
/// literal, a listed value), the fewest found that give the same verdicts stay, or the secret's
/// letters in another case.
///
/// A placeholder is drawn from a generator seeded by the recording's key and the secret, so
/// equal secrets meet without a table of every secret seen; with a key drawn at random for each
/// recording, it tells nothing of its secret but its shape. The placeholders given so far are
/// remembered (up to `remembered`) to keep different secrets apart.
public struct SecretPlaceholders {
    private let key: UInt64
    private var placeholders: [String: String] = [:]
    private var taken: Set<String> = []
    private let remembered: Int
    /// Secrets whose placeholder could not be made to pass and fail the same rules.
    public private(set) var approximations = 0

    /// `key` seeds every placeholder: random for a real session, fixed where recordings must
    /// repeat byte for byte.
    public init(key: UInt64 = 0x5EC2_E7ED, remembered: Int = 1 << 16) {
        self.key = key
        self.remembered = remembered
    }

    /// The placeholder already given to `secret`, if it is remembered.
    public func existing(for secret: String) -> String? {
        placeholders[secret]
    }

    /// A field's rules, made ready once for judging its secrets and their placeholders.
    public struct Rules: Sendable {
        fileprivate let checks: [CompiledCheck]
        /// The other fields the rules name, by the position their checks read them at.
        fileprivate let otherFields: [String]

        /// Other fields a rule names read as the values given with the secret (`comparedWith`),
        /// or as empty: equality with a secret field is kept by giving equal secrets equal
        /// placeholders.
        public init(_ rules: [Rule]) {
            var named: [String] = []
            checks = rules.map {
                CompiledCheck($0.check, indexOf: { name in
                    if let position = named.firstIndex(of: name) { return position }
                    named.append(name)
                    return named.count - 1
                })
            }
            otherFields = named
        }

        /// The value of the other field its checks read at `position`.
        fileprivate func value(at position: Int, in values: [String: String]) -> String {
            otherFields.indices.contains(position) ? values[otherFields[position]] ?? "" : ""
        }

        public static let none = Rules([])
    }

    /// The placeholder for `secret`, judged by `rules` (a field's).
    public mutating func placeholder(for secret: String, rules: [Rule]) -> String {
        placeholder(for: secret, judgedBy: Rules(rules))
    }

    /// What the search for one secret's placeholder, and for all those of one message, may
    /// spend: each value judged costs the `MatchBudget` steps its checks spent (a dictionary
    /// question 3 and more for a long password). A secret whose search reaches it gets a stand-in
    /// of its shape that may not pass and fail its rules as it does, counted in `approximations`.
    public static let searchSteps = 2048

    /// The placeholder for `secret`, judged by `rules`, the other fields they name holding
    /// `others` (by name, as the rules read them; a field not given is empty). `search`, shared
    /// by the secrets of one message, bounds what judging them all may spend (`searchSteps`).
    public mutating func placeholder(for secret: String, judgedBy rules: Rules = .none, comparedWith others: [String: String] = [:],
                                     within search: MatchBudget? = nil) -> String {
        if secret.isEmpty { return secret }
        let judge = Judge(checks: rules.checks, valueAt: { rules.value(at: $0, in: others) },
                          search: search ?? MatchBudget(stepsPerMessage: Self.searchSteps))
        if let known = placeholders[secret] {
            // Made beside other values, it may no longer be judged as its secret is: counted.
            if !others.isEmpty {
                let verdicts = judge.verdicts(of: secret)
                if verdicts == nil || judge.verdicts(of: known) != verdicts { approximations += 1 }
            }
            return known
        }
        var generator = SeededGenerator(seed: key ^ Self.fingerprint(of: secret))
        var chosen: String?
        var candidate = Self.reshaped(secret, using: &generator)
        if let verdicts = judge.verdicts(of: secret) {
            var attempts = 0
            while chosen == nil && attempts < 64 && judge.canJudge {
                if attempts > 0 { candidate = Self.reshaped(secret, using: &generator) }
                attempts += 1
                if !taken.contains(candidate), judge.verdicts(of: candidate) == verdicts { chosen = candidate }
            }
            if chosen == nil {
                // A secret that fails a list of forbidden values is stood in for by another listed value.
                let (lowercased, length) = (secret.lowercased(), secret.count)
                for listed in Self.listedValues(in: judge.checks)
                where listed.count == length && listed != lowercased && !taken.contains(listed) {
                    guard judge.canJudge else { break }
                    if judge.verdicts(of: listed) == verdicts {
                        chosen = listed
                        break
                    }
                }
            }
            if chosen == nil {
                chosen = partlyKept(secret, judgedBy: judge, verdicts: verdicts, using: &generator)
            }
        }
        if chosen == nil { approximations += 1 }
        // Short secrets can run out of distinct stand-ins of their shape; then one is shared.
        let placeholder = chosen ?? candidate
        if placeholders.count < remembered {
            placeholders[secret] = placeholder
            taken.insert(placeholder)
        }
        return placeholder
    }

    /// A stand-in that keeps some of the secret's characters, as a rule may need (`7[0-9]{3}`
    /// needs the 7), or its letters in other cases (a value on a list compared ignoring case):
    /// characters are kept at random, rarely at first, and of the stand-ins found at the lowest
    /// rate that finds any, the one that keeps the fewest wins. Nil when none is found.
    private func partlyKept(
        _ secret: String, judgedBy judge: Judge, verdicts: UInt64, using generator: inout SeededGenerator
    ) -> String? {
        let characters = Array(secret)
        for eighths in 1...8 {
            var best: (placeholder: String, kept: Int)?
            for _ in 0..<32 {
                var kept = 0
                var candidate = ""
                for character in characters {
                    if generator.next() % 8 < UInt64(eighths) {
                        // At the top rate every character is kept, with its case flipped at random.
                        let flipped = eighths == 8 && generator.next() % 2 == 0 ? Self.caseFlipped(character) : character
                        candidate.append(flipped)
                        kept += flipped == character ? 1 : 0
                    } else {
                        candidate.append(Self.substitute(for: character, using: &generator))
                    }
                }
                guard candidate != secret, !taken.contains(candidate), kept < best?.kept ?? Int.max else { continue }
                guard judge.canJudge else { return best?.placeholder }
                guard judge.verdicts(of: candidate) == verdicts else { continue }
                best = (candidate, kept)
            }
            if let best { return best.placeholder }
        }
        return nil
    }

    private static func caseFlipped(_ character: Character) -> Character {
        let upper = character.uppercased(), lower = character.lowercased()
        guard upper.count == 1, lower.count == 1 else { return character }
        return Character(character.isUppercase ? lower : upper)
    }

    /// Judges values by a field's checks, each as the server judges it (with a `MatchBudget` of
    /// its own), paying the steps they spend from `search`.
    private struct Judge {
        let checks: [CompiledCheck]
        let valueAt: (Int) -> String
        let search: MatchBudget

        /// Whether another value may be judged: the steps are not all spent, or there is nothing to judge.
        var canJudge: Bool { search.remaining > 0 || checks.isEmpty }

        /// Which checks pass, a bit each (checks past the 64th share the last bit); nil when the
        /// steps ran out before every check was judged.
        func verdicts(of value: String) -> UInt64? {
            guard !checks.isEmpty else { return 0 }
            var bits: UInt64 = 0
            for (index, check) in checks.enumerated() {
                guard search.remaining > 0 else { return nil }
                let budget = MatchBudget()
                if check.judge(value, valueAt: valueAt, budget: budget) == .passes { bits |= 1 << UInt64(min(index, 63)) }
                _ = search.pay(min(budget.stepsPerMessage - budget.remaining, search.remaining))
            }
            return bits
        }
    }

    private static func listedValues(in checks: [CompiledCheck]) -> [String] {
        checks.flatMap { check -> [String] in
            switch check {
            case .notOneOf(let names): return names.sorted
            case .anyOf(let alternatives): return listedValues(in: alternatives.flatMap { $0 })
            default: return []
            }
        }
    }

    /// FNV-1a of the secret's bytes: the same on every machine, unlike `Hasher`.
    private static func fingerprint(of secret: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in secret.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// Each character replaced by another of its kind; byte by byte when the secret is ASCII.
    private static func reshaped(_ secret: String, using generator: inout SeededGenerator) -> String {
        if secret.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            let bytes = secret.utf8.map { byte -> UInt8 in
                let pool: [UInt8] = switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): asciiLower
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): asciiUpper
                case UInt8(ascii: "0")...UInt8(ascii: "9"): asciiDigits
                case 0x21...0x7E: asciiSymbols
                default: [byte]
                }
                return pick(from: pool, not: byte, using: &generator)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var result = ""
        for character in secret { result.append(substitute(for: character, using: &generator)) }
        return result
    }

    private static let asciiLower = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    private static let asciiUpper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    private static let asciiDigits = Array("0123456789".utf8)
    private static let asciiSymbols = Array("!#$%&*+-.:;=?@^_~".utf8)
    private static let otherLetters = Array("àáâäçèéêëìíîïñòóôöùúûüý")
    private static let otherSymbols = Array("§¶†‡•")

    /// A member of `pool` other than `original` (`original` itself when it is all the pool has).
    private static func pick<Element: Equatable>(from pool: [Element], not original: Element, using generator: inout SeededGenerator) -> Element {
        guard pool.count > 1 else { return pool[0] }
        while true {
            let choice = pool[Int(generator.next() % UInt64(pool.count))]
            if choice != original { return choice }
        }
    }

    private static func substitute(for character: Character, using generator: inout SeededGenerator) -> Character {
        if character.isWhitespace { return character }
        if character.isASCII, let byte = character.asciiValue {
            let pool = switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): asciiLower
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): asciiUpper
            case UInt8(ascii: "0")...UInt8(ascii: "9"): asciiDigits
            default: asciiSymbols
            }
            return Character(Unicode.Scalar(pick(from: pool, not: byte, using: &generator)))
        }
        return pick(from: character.isLetter ? otherLetters : otherSymbols, not: character, using: &generator)
    }
}
