import Foundation

/// Makes opaque login tokens: 32 random bytes as 64 hexadecimal digits.
public final class TokenSource: @unchecked Sendable {
    private var seeded: SeededGenerator?
    private let lock = NSLock()

    /// Tokens from the system's secure random source (getrandom on Linux).
    public static func secure() -> TokenSource { TokenSource(seeded: nil) }

    /// Reproducible tokens for virtual-time runs, whose output must be byte-identical run to run.
    /// Never for real use: anyone who knows the seed knows the tokens.
    public static func reproducible(seed: UInt64) -> TokenSource { TokenSource(seeded: SeededGenerator(seed: seed)) }

    private init(seeded: SeededGenerator?) {
        self.seeded = seeded
    }

    public func makeToken() -> String {
        lock.withLock {
            var words: [UInt64] = []
            if seeded != nil {
                for _ in 0..<4 { words.append(seeded!.next()) }
            } else {
                var system = SystemRandomNumberGenerator()
                for _ in 0..<4 { words.append(system.next()) }
            }
            return words.map { word in
                let text = String(word, radix: 16)
                return String(repeating: "0", count: 16 - text.count) + text
            }.joined()
        }
    }
}
