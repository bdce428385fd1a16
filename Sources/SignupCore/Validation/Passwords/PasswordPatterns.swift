/// Passwords made by a pattern rather than chosen (NIST SP 800-63B rev. 4 §3.1.1.2): the whole
/// value one unit repeated (`aaaaaa`, `abcabcabc`), or a run along the alphabet, the digits or a
/// keyboard row, either way (`123456789`, `fedcba`, `qwertyuiop`, `1qaz2wsx`). Compared
/// lower-cased, in time linear in the value.
enum PasswordPatterns {
    static func isRepetitiveOrSequential(_ value: String) -> Bool {
        LowerCasedScalars.with(value) { scalars in
            guard scalars.count >= 2 else { return false }
            return isRepetitive(scalars) || isSequential(scalars) || isKeyboardRun(scalars)
        }
    }

    /// Whether the value repeats a unit of at most half its length (the last unit may be cut short).
    private static func isRepetitive(_ scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        // Knuth–Morris–Pratt's failure function: the longest proper prefix that is also a suffix.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: scalars.count) { border in
            border[0] = 0
            var length = 0
            for index in 1..<scalars.count {
                while length > 0 && scalars[index] != scalars[length] { length = border[length - 1] }
                if scalars[index] == scalars[length] { length += 1 }
                border[index] = length
            }
            let period = scalars.count - border[scalars.count - 1]
            return period * 2 <= scalars.count
        }
    }

    /// Whether every scalar is one more, or every scalar one less, than the one before it.
    private static func isSequential(_ scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        let step = Int64(scalars[1]) - Int64(scalars[0])
        guard step == 1 || step == -1 else { return false }
        for index in 2..<scalars.count where Int64(scalars[index]) - Int64(scalars[index - 1]) != step {
            return false
        }
        return true
    }

    /// Whether the value is a stretch of one of `runs`, forwards or backwards: read along each run
    /// from every place its first code point stands (`places`), rather than slid along them all.
    private static func isKeyboardRun(_ scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        guard scalars.count <= longestRun, let first = scalars.first else { return false }
        for (run, start) in places[first] ?? [] {
            let keys = runScalars[run]
            if start + scalars.count <= keys.count && zip(keys[start...], scalars).allSatisfy(==) { return true }
            if start + 1 >= scalars.count && zip(keys[...start].reversed(), scalars).allSatisfy(==) { return true }
        }
        return false
    }

    private static let runScalars = runs.map { $0.unicodeScalars.map(\.value) }
    private static let longestRun = runScalars.map(\.count).max() ?? 0
    /// Where each code point stands in the runs: which run, and where in it.
    private static let places: [UInt32: [(run: Int, start: Int)]] = {
        var places: [UInt32: [(run: Int, start: Int)]] = [:]
        for (run, keys) in runScalars.enumerated() {
            for (start, key) in keys.enumerated() { places[key, default: []].append((run, start)) }
        }
        return places
    }()

    /// Rows and columns of QWERTY, QWERTZ and AZERTY keyboards, and the digits wrapping round.
    static let runs = [
        "1234567890-=", "01234567890123456789", "qwertyuiop[]", "asdfghjkl;'", "zxcvbnm,./",
        "qwertyuiopasdfghjklzxcvbnm", "qwertzuiop", "yxcvbnm", "azertyuiop", "qsdfghjklm", "wxcvbn",
        "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.0p;/", "qazwsxedcrfvtgbyhnujmikolp",
        "!@#$%^&*()_+",
    ]
}
