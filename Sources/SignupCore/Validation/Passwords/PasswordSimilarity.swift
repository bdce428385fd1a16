/// Whether a password is another field's value in disguise (NIST SP 800-63B rev. 4 §3.1.1.2:
/// context-specific words), measured as Ory Kratos measures it against the identifier: an edit
/// distance under 5, or a common substring longer than half the password. Compared lower-cased
/// with the whole other value and, for an e-mail address, its local part; values of fewer than 3
/// code points say too little to compare.
///
/// The cost is bounded: each side is compared by its first `comparedScalars` code points, so a
/// comparison is at most 256 × 256 cells, whatever the lengths; and it is paid for from the
/// message's `MatchBudget` before it starts, a step per `cellsPerStep` cells of both candidates
/// (the whole value, and its local part, which is shorter) and one more. The work itself is
/// less: the edit distance is only followed near the diagonal, where a distance under 5 can
/// lie, and both measures stop as soon as they know.
enum PasswordSimilarity {
    static let comparedScalars = 256
    static let minimumDistance = 5
    /// About 0.1 ms of both measures, as a pattern's step is.
    static let cellsPerStep = 16_384

    /// Whether the password is too similar to the other value; nil when `budget` cannot pay.
    static func isTooSimilar(_ password: String, to other: String, within budget: MatchBudget) -> Bool? {
        let steps = steps(comparing: password, with: other)
        guard steps > 0 else { return false }
        guard budget.pay(steps) else { return nil }
        return LowerCasedScalars.with(password, atMost: comparedScalars) { secret in
            LowerCasedScalars.with(other, atMost: comparedScalars) { whole in
                if isSimilar(secret, whole) { return true }
                guard let at = whole.firstIndex(of: UInt32(("@" as Unicode.Scalar).value)) else { return false }
                return isSimilar(secret, UnsafeBufferPointer(rebasing: whole[..<at]))
            }
        }
    }

    /// What comparing `password` with `other` costs of a `MatchBudget`, paid before any work, by
    /// the lengths as sent (lower case changes them little); 0 when `other` has fewer than 3 code
    /// points, and no comparison is made. Values whose bytes make less than one step cost one,
    /// however many code points they hold, and are not counted.
    static func steps(comparing password: String, with other: String) -> Int {
        let passwordBytes = password.utf8.count, otherBytes = other.utf8.count
        // Fewer than 3 code points: under 12 bytes (4 at most each), they are counted.
        guard otherBytes >= 12 || (otherBytes >= 3 && scalarCount(of: other) >= 3) else { return 0 }
        return passwordBytes * otherBytes * 2 < cellsPerStep ? 1
            : scalarCount(of: password) * scalarCount(of: other) * 2 / cellsPerStep + 1
    }

    /// How many code points `text` has, counted up to `comparedScalars`: its UTF-8 bytes that
    /// start one.
    private static func scalarCount(of text: String) -> Int {
        func count(_ bytes: some Sequence<UInt8>) -> Int {
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 {
                count += 1
                if count == comparedScalars { break }
            }
            return count
        }
        // A native string's bytes are read in place.
        return text.utf8.withContiguousStorageIfAvailable(count) ?? count(text.utf8)
    }

    private static func isSimilar(_ secret: UnsafeBufferPointer<UInt32>, _ candidate: UnsafeBufferPointer<UInt32>) -> Bool {
        candidate.count >= 3
            && (editDistance(secret, candidate, isBelow: minimumDistance) || hasCommonRun(secret, candidate, longerThanHalfOf: secret.count))
    }

    /// Whether the Levenshtein distance of `left` and `right` is below `limit`: by the bits of a
    /// word when `bitParallelDistance` can tell; otherwise only cells within `limit - 1` of the
    /// diagonal can hold less, so only they are computed, any other counting as `limit`, which
    /// changes no value below it, and it stops when a whole row has reached `limit`.
    static func editDistance(_ left: UnsafeBufferPointer<UInt32>, _ right: UnsafeBufferPointer<UInt32>, isBelow limit: Int) -> Bool {
        let (rows, columns) = (left.count, right.count)
        guard limit > 0, abs(rows - columns) < limit else { return false }
        // One side empty: the distance is the other's length, below `limit` by the guard.
        if rows == 0 || columns == 0 { return true }
        if let distance = bitParallelDistance(left, right) { return distance < limit }
        let band = limit - 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (columns + 1)) { cells in
            var previous = UnsafeMutableBufferPointer(rebasing: cells[0...columns])
            var current = UnsafeMutableBufferPointer(rebasing: cells[(columns + 1)...])
            for column in 0...columns { previous[column] = min(column, limit) }
            for row in 1...rows {
                let low = max(1, row - band), high = min(columns, row + band)
                current[low - 1] = low == 1 ? min(row, limit) : limit
                var smallest = current[low - 1]
                let leftScalar = left[row - 1]
                for column in low...high {
                    let substitution = previous[column - 1] + (leftScalar == right[column - 1] ? 0 : 1)
                    let cell = min(substitution, previous[column] + 1, current[column - 1] + 1, limit)
                    current[column] = cell
                    smallest = min(smallest, cell)
                }
                if high < columns { current[high + 1] = limit }
                if smallest >= limit { return false }
                swap(&previous, &current)
            }
            return previous[columns] < limit
        }
    }

    /// The Levenshtein distance of `left` and `right`, a column of the table at a time in the bits
    /// of a word (Myers 1999, as Hyyrö 2001 gives it for the whole distance): for a `left` of at
    /// most 64 ASCII code points, whose positions are looked up in a table of 128 words; nil for
    /// any other, which the banded table measures.
    static func bitParallelDistance(_ left: UnsafeBufferPointer<UInt32>, _ right: UnsafeBufferPointer<UInt32>) -> Int? {
        guard (1...UInt64.bitWidth).contains(left.count), left.allSatisfy({ $0 < 128 }) else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 128) { positions in
            // Where each ASCII code point stands in `left`, as bits.
            positions.initialize(repeating: 0)
            for index in left.indices { positions[Int(left[index])] |= 1 << index }
            let last: UInt64 = 1 << (left.count - 1)
            // The vertical deltas of the current column, +1 and -1; bits above `left.count` are
            // never read (carries only run upwards).
            var plus = UInt64.max, minus: UInt64 = 0
            var distance = left.count
            for scalar in right {
                let equal = scalar < 128 ? positions[Int(scalar)] : 0
                let vertical = equal | minus
                let horizontal = (((equal & plus) &+ plus) ^ plus) | equal
                var horizontalPlus = minus | ~(horizontal | plus)
                var horizontalMinus = plus & horizontal
                if horizontalPlus & last != 0 { distance += 1 } else if horizontalMinus & last != 0 { distance -= 1 }
                // The first row grows by one a column: a +1 comes in at the bottom.
                horizontalPlus = horizontalPlus << 1 | 1
                horizontalMinus <<= 1
                plus = horizontalMinus | ~(vertical | horizontalPlus)
                minus = horizontalPlus & vertical
            }
            return distance
        }
    }

    /// Whether both hold a run of the same code points longer than half of `length`. When that
    /// is more than half of `left` too (the password's own length, as `isTooSimilar` asks), every
    /// such run covers `left`'s code point at `left.count - needed`: only where `right` holds that
    /// code point can a run lie, and each is measured outwards from it. Otherwise, along each
    /// diagonal (a fixed shift between the sides) a window of the run's length is read from its
    /// end: a mismatch at `q` rules out every window over `q`, so the next starts after it.
    static func hasCommonRun(_ left: UnsafeBufferPointer<UInt32>, _ right: UnsafeBufferPointer<UInt32>,
                             longerThanHalfOf length: Int) -> Bool {
        // The shortest run longer than half: `run * 2 > length`.
        let needed = length / 2 + 1
        // A common run is no longer than the shorter side: too short a side settles it unread.
        guard min(left.count, right.count) >= needed else { return false }
        // A run of `needed` starts at or before `anchor` and, longer than half of `left`, ends at or after it.
        let anchor = left.count - needed
        if anchor < needed {
            let code = left[anchor]
            for position in right.indices where right[position] == code {
                var before = 0
                while before < min(anchor, position) && left[anchor - before - 1] == right[position - before - 1] { before += 1 }
                var after = 1
                while anchor + after < left.count && position + after < right.count && left[anchor + after] == right[position + after] { after += 1 }
                if before + after >= needed { return true }
            }
            return false
        }
        // `shift` is where in `right` the cell of `left[0]`'s diagonal falls.
        for shift in (needed - left.count)...(right.count - needed) {
            let end = min(left.count, right.count - shift)
            var start = max(0, -shift)
            while start + needed <= end {
                var last = start + needed - 1
                while last >= start && left[last] == right[last + shift] { last -= 1 }
                if last < start { return true }
                start = last + 1
            }
        }
        return false
    }
}
