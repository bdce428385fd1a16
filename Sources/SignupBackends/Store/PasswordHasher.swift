import CCrypt
import SignupCore

/// Hashes and verifies passwords with the system's libcrypt, using yescrypt (`$y$`) with a fresh
/// random salt from the library's own entropy source. Deliberately slow (tens of milliseconds):
/// call it off the event loop. The clear password is never stored or logged.
public enum PasswordHasher {
    /// Why a password could not be hashed.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case saltUnavailable
        case hashingFailed

        public var description: String {
            switch self {
            case .saltUnavailable: return "libcrypt could not make a yescrypt salt (no entropy source?)"
            case .hashingFailed: return "libcrypt could not hash the password with yescrypt"
            }
        }
    }

    /// A yescrypt hash of `password`, in the `$y$…` text form that `verify` reads back.
    public static func hash(_ password: String) throws(Failure) -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil,
              setting.first != CChar(UInt8(ascii: "*")) else {
            throw .saltUnavailable
        }
        guard let hash = crypt(password, setting: setting), hash.hasPrefix("$y$") else { throw .hashingFailed }
        return hash
    }

    /// A hash of a random password, checked against when a name is unknown so that the answer
    /// takes as long as for a known name with a wrong password.
    public static let decoyHash: String = (try? hash(TokenSource.secure().makeToken())) ?? "$y$"

    /// Whether `password` matches a hash made by `hash(_:)`, compared in constant time.
    public static func verify(_ password: String, against storedHash: String) -> Bool {
        guard storedHash.hasPrefix("$y$"),
              let candidate = crypt(password, setting: Array(storedHash.utf8CString)) else { return false }
        return constantTimeEquals(Array(candidate.utf8), Array(storedHash.utf8))
    }

    private static func crypt(_ password: String, setting: [CChar]) -> String? {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            // Wipe the work area: it held the clear password.
            UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        guard let output = crypt_r(password, setting, data) else { return nil }
        let result = String(cString: output)
        return result.hasPrefix("*") ? nil : result
    }

    private static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
