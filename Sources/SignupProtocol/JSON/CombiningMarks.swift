import SignupCore

/// Unicode's stream-safe text format (UAX #15 §13) allows at most 30 non-starters (characters of
/// a combining class other than 0) in a row, which no text in any language needs more of. The
/// server reads no string with more: normalising, comparing or hashing a longer run costs time in
/// its square, and a single one could hold the loop for minutes.
package enum CombiningMarks {
    package static let mostInARow = 30

    /// Whether `text` holds more than `limit` non-starters in a row.
    static func exceed(_ limit: Int = mostInARow, in text: String) -> Bool {
        var run = 0
        for scalar in text.unicodeScalars {
            if nonStarters.contains(scalar) {
                run += 1
                if run > limit { return true }
            } else {
                run = 0
            }
        }
        return false
    }

    /// Characters of a combining class other than 0.
    static let nonStarters = ScalarSet { $0.properties.canonicalCombiningClass != .notReordered }
}
