import CPasswordQuality

/// Passwords built on a dictionary word, as cracklib finds them (through libpwquality, Debian's
/// `libpwquality1` and `cracklib-runtime`): the word itself, reversed, with letters swapped for
/// digits, or with a few characters added. Loaded on first use; `problem` says what to install
/// when it cannot be.
enum DictionaryWords {
    /// Why the check cannot run, naming what to install; nil when it can.
    static var problem: String? {
        signup_pwquality_load().map { String(cString: $0) }
    }

    /// Whether cracklib finds `password` built on a dictionary word; false when it cannot tell.
    static func contain(_ password: String) -> Bool {
        // A NUL would end the password early for C; such a value is no dictionary word.
        guard !password.utf8.contains(0) else { return false }
        return signup_pwquality_is_dictionary_based(password) == 1
    }
}
