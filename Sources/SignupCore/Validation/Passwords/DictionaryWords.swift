import CPasswordQuality
import Synchronization

/// Passwords built on a dictionary word, as cracklib finds them (through libpwquality, Debian's
/// `libpwquality1` and `cracklib-runtime`): the word itself, reversed, with letters swapped for
/// digits, or with a few characters added. Loaded on first use; `problem` says what to install
/// when it cannot be.
enum DictionaryWords {
    /// Why the check cannot run, naming what to install; nil when it can.
    static var problem: String? {
        signup_pwquality_load().map { String(cString: $0) }
    }

    /// What asking cracklib about a password of `bytes` costs of a message's `MatchBudget`, in
    /// its steps (about 0.1 ms each): 3, and a step for every 2 bytes past 32, at most 128 in all,
    /// as cracklib's mangling rules take longer on a longer password (a random 300-byte one takes
    /// about 20 ms).
    static func steps(forQuestionOf bytes: Int) -> Int {
        3 + min(max(bytes - 32, 0) / 2, 125)
    }

    /// Whether cracklib finds `password` built on a dictionary word; false when it cannot tell;
    /// nil when `budget` cannot pay for a question (an answer kept from before costs nothing).
    static func contain(_ password: String, within budget: MatchBudget) -> Bool? {
        // A NUL would end the password early for C; such a value is no dictionary word.
        guard !password.utf8.contains(0) else { return false }
        // cracklib reads its dictionary from disk for every question (about 0.25 ms), and a
        // password is judged again whenever a field it is compared with changes: the last
        // answers are kept, by the password's SHA-256, never the password itself.
        let key = SHA256.digest(password.utf8)
        if let known = answers.withLock({ $0[key] }) { return known }
        guard budget.pay(steps(forQuestionOf: password.utf8.count)) else { return nil }
        let found = signup_pwquality_is_dictionary_based(password, budget.givesWay ? 1 : 0) == 1
        answers.withLock { answers in
            if answers.count >= answersKept { answers.removeAll(keepingCapacity: true) }
            answers[key] = found
        }
        return found
    }

    /// At most this many answers are kept (about 100 KiB); then they are forgotten together.
    private static let answersKept = 1024
    private static let answers = Mutex<[[UInt8]: Bool]>([:])
}
