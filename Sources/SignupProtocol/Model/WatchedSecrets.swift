/// Secrets a recording or a trace watches for in text it writes, found in one pass over the text for each
/// length they come in, however many there are: a session that logs in ten thousand times is
/// watched for ten thousand tokens of one length. (Searching for each secret in turn made every
/// message out cost as much as the secrets seen so far: a recording of 500 log-ins took 13 times
/// as long as the session.)
///
/// Rabin–Karp: each length's secrets are kept by a rolling hash modulo the prime 2⁶¹ − 1, with a
/// base drawn at random once a process, so no text can be made to collide on purpose; a hash that
/// matches is compared byte for byte.
package struct WatchedSecrets {
    private var secrets: [[UInt8]] = []
    private var known: Set<[UInt8]> = []
    /// By length: each hash, and the secrets of that length with it (`secrets`' indices).
    private var byLength: [Int: [UInt64: [Int]]] = [:]
    /// The lengths in `byLength`, longest first: a match at a place is the longest there.
    private var lengths: [Int] = []
    private let base = WatchedSecrets.processBase
    /// Drawn once: a recording makes a set for each answer a backend wrote text in, and drawing costs a system call.
    private static let processBase = UInt64.random(in: 256 ..< prime)

    private static let prime: UInt64 = (1 << 61) - 1

    package init() {}

    /// Watching for each of `secrets` (as UTF-8).
    package init(_ secrets: some Sequence<String>) {
        for secret in secrets { insert(Array(secret.utf8)) }
    }

    package var isEmpty: Bool { secrets.isEmpty }

    /// Watches for `secret` from now on; an empty one is never watched for.
    package mutating func insert(_ secret: [UInt8]) {
        guard !secret.isEmpty, known.insert(secret).inserted else { return }
        let hash = secret.withUnsafeBufferPointer { hashOf($0[...]) }
        if byLength[secret.count] == nil {
            lengths.append(secret.count)
            lengths.sort(by: >)
        }
        byLength[secret.count, default: [:]][hash, default: []].append(secrets.count)
        secrets.append(secret)
    }

    /// Whether any secret watched for occurs in `text`.
    package func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        lengths.contains { length in firstMatch(ofLength: length, in: text, from: 0) != nil }
    }

    /// `text` with every secret watched for that occurs in it replaced by `replacement(secret)`,
    /// leftmost first and, at one place, the longest; nil when none occurs.
    package func replacingOccurrences(in text: String, with replacement: (String) -> String) -> String? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { text -> String? in
            // Where a secret of each length next matches, from `position` on.
            var next = lengths.map { firstMatch(ofLength: $0, in: text, from: 0) }
            guard next.contains(where: { $0 != nil }) else { return nil }
            var result: [UInt8] = []
            var position = 0
            while position < text.count {
                for (index, length) in lengths.enumerated() where (next[index]?.start ?? .max) < position {
                    next[index] = firstMatch(ofLength: length, in: text, from: position)
                }
                let found = next.enumerated().compactMap { entry in entry.element.map { (length: lengths[entry.offset], match: $0) } }
                // The first of the leftmost is the longest there: lengths are longest first.
                guard let (length, match) = found.min(by: { $0.match.start < $1.match.start }) else { break }
                result.append(contentsOf: text[position..<match.start])
                result.append(contentsOf: replacement(String(decoding: secrets[match.secret], as: UTF8.self)).utf8)
                position = match.start + length
            }
            result.append(contentsOf: text[min(position, text.count)...])
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// The first place at or after `from` where a secret `length` bytes long occurs, and which.
    private func firstMatch(ofLength length: Int, in text: UnsafeBufferPointer<UInt8>, from: Int)
        -> (start: Int, secret: Int)? {
        guard let hashes = byLength[length], from <= text.count - length else { return nil }
        var hash = hashOf(text[from..<(from + length)])
        // The weight of the byte leaving the window: base^(length - 1).
        var leaving: UInt64 = 1
        for _ in 1..<length { leaving = multiply(leaving, base) }
        var start = from
        while true {
            if let candidates = hashes[hash] {
                let window = UnsafeBufferPointer(rebasing: text[start..<(start + length)])
                if let secret = candidates.first(where: { secrets[$0].elementsEqual(window) }) { return (start, secret) }
            }
            guard start + length < text.count else { return nil }
            // Drop text[start], take text[start + length].
            hash = add(hash, Self.prime - multiply(UInt64(text[start]), leaving))
            hash = add(multiply(hash, base), UInt64(text[start + length]))
            start += 1
        }
    }

    private func hashOf(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        bytes.reduce(0) { add(multiply($0, base), UInt64($1)) }
    }

    /// `a · b mod 2⁶¹ − 1`, for `a` and `b` below it.
    private func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        // a·b = high·2⁶⁴ + low, and 2⁶¹ ≡ 1: fold the bits above 61 onto the rest.
        let folded = (low & Self.prime) + (low >> 61) + (high << 3)
        return reduce(folded)
    }

    private func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        reduce(a + b)
    }

    /// A value below 2⁶³ taken modulo 2⁶¹ − 1.
    private func reduce(_ value: UInt64) -> UInt64 {
        var value = (value & Self.prime) + (value >> 61)
        if value >= Self.prime { value -= Self.prime }
        return value
    }
}
