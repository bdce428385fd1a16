/// Whether a password is another field's value in disguise (NIST SP 800-63B rev. 4 §3.1.1.2:
/// context-specific words), measured as Ory Kratos measures it against the identifier: an edit
/// distance under 5, or a common substring longer than half the password. Compared lower-cased
/// with the whole other value and, for an e-mail address, its local part; values of fewer than 3
/// code points say too little to compare.
///
/// The cost is bounded: each side is compared by its first `comparedScalars` code points, so a
/// comparison is at most 256 × 256 cells, whatever the lengths; and it is paid for from the
/// message's `MatchBudget` before it starts, a step per `cellsPerStep` cells of both candidates
/// (the whole value, and its local part, which is shorter) and one more.
enum PasswordSimilarity {
    static let comparedScalars = 256
    static let minimumDistance = 5
    /// About 0.1 ms of both measures, as a pattern's step is.
    static let cellsPerStep = 16_384

    /// Whether the password is too similar to the other value; nil when `budget` cannot pay.
    static func isTooSimilar(_ password: String, to other: String, within budget: MatchBudget) -> Bool? {
        // Paid for before any work, by the lengths as sent (lower case changes them little).
        let passwordLength = password.unicodeScalars.prefix(comparedScalars).count
        let otherLength = other.unicodeScalars.prefix(comparedScalars).count
        guard otherLength >= 3 else { return false }
        guard budget.pay(passwordLength * otherLength * 2 / cellsPerStep + 1) else { return nil }
        let secret = Array(password.lowercased().unicodeScalars.prefix(comparedScalars))
        let whole = Array(other.lowercased().unicodeScalars.prefix(comparedScalars))
        var candidates = [whole]
        if let at = whole.firstIndex(of: "@") { candidates.append(Array(whole[..<at])) }
        for candidate in candidates where candidate.count >= 3 {
            if editDistance(secret, candidate) < minimumDistance || longestCommonRun(secret, candidate) * 2 > secret.count { return true }
        }
        return false
    }

    /// Levenshtein distance, one row at a time.
    static func editDistance(_ left: [Unicode.Scalar], _ right: [Unicode.Scalar]) -> Int {
        if left.isEmpty { return right.count }
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for (row, leftScalar) in left.enumerated() {
            current[0] = row + 1
            for (column, rightScalar) in right.enumerated() {
                let substitution = previous[column] + (leftScalar == rightScalar ? 0 : 1)
                current[column + 1] = min(substitution, previous[column + 1] + 1, current[column] + 1)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }

    /// The length of the longest run of code points both hold.
    static func longestCommonRun(_ left: [Unicode.Scalar], _ right: [Unicode.Scalar]) -> Int {
        var previous = [Int](repeating: 0, count: right.count + 1)
        var current = previous
        var longest = 0
        for leftScalar in left {
            for (column, rightScalar) in right.enumerated() {
                current[column + 1] = leftScalar == rightScalar ? previous[column] + 1 : 0
                longest = max(longest, current[column + 1])
            }
            swap(&previous, &current)
        }
        return longest
    }
}
