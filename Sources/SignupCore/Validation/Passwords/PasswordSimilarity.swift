/// Whether a password is another field's value in disguise (NIST SP 800-63B rev. 4 §3.1.1.2:
/// context-specific words), measured as Ory Kratos measures it against the identifier: an edit
/// distance under 5, or a common substring longer than half the password. Compared lower-cased
/// with the whole other value and, for an e-mail address, its local part; values of fewer than 3
/// code points say too little to compare.
///
/// The cost is bounded: each side is compared by its first `comparedScalars` code points, so a
/// comparison is at most 256 × 256 steps, whatever the lengths.
enum PasswordSimilarity {
    static let comparedScalars = 256
    static let minimumDistance = 5

    static func isTooSimilar(_ password: String, to other: String) -> Bool {
        let secret = Array(password.lowercased().unicodeScalars.prefix(comparedScalars))
        let whole = Array(other.lowercased().unicodeScalars.prefix(comparedScalars))
        var candidates = [whole]
        if let at = whole.firstIndex(of: "@") { candidates.append(Array(whole[..<at])) }
        return candidates.contains { candidate in
            candidate.count >= 3
                && (editDistance(secret, candidate) < minimumDistance || longestCommonRun(secret, candidate) * 2 > secret.count)
        }
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
