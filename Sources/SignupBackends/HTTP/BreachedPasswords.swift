import SignupCore

/// Asks the Pwned Passwords range API whether a password is known from breaches, with
/// k-anonymity: `GET {base}/range/{first five hex digits of its SHA-1}` with `Add-Padding: true`,
/// whose answer lists `SUFFIX:COUNT` lines for every hash of that prefix (padding lines count 0).
/// Only the prefix leaves the process; the suffix is compared here. A range's answer is kept for
/// the check's `cacheFor`, for every password of that prefix. A status other than 200, a timeout
/// or a body over 256 KiB (a real range is some 40 KB) is an error, which the check passes or shows as unavailable.
final class BreachedPasswords {
    private let client: HTTPClient
    private let now: () -> TimePoint
    private struct RangeKey: Hashable {
        let base: String
        let prefix: String
    }
    /// Each range's breach counts by suffix, until they expire.
    private var ranges = ExpiringCache<RangeKey, [Substring: Int]>(capacity: 1024)
    static let maxAnswerBytes = 256 * 1024

    init(client: HTTPClient, now: @escaping () -> TimePoint) {
        self.client = client
        self.now = now
    }

    func ask(_ password: String, _ check: BreachedPasswordCheck, answer: @escaping (Result<CheckVerdict, any Error>) -> Void) -> any Disposable {
        let hash = SHA1.upperHexDigest(password)
        let key = RangeKey(base: check.baseURL, prefix: String(hash.prefix(5)))
        let suffix = hash.dropFirst(5)
        if let kept = ranges.value(for: key, at: now()) {
            answer(.success(Self.verdict(kept[suffix] ?? 0, check)))
            return Disposables.empty
        }
        var base = check.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let request = HTTPRequest(
            method: "GET", url: "\(base)/range/\(key.prefix)", timeout: check.timeout,
            headers: [("Add-Padding", "true")], maxBodyBytes: Self.maxAnswerBytes)
        return client.exchange(request).subscribe(Observer { [weak self] event in
            switch event {
            case .next(let reply):
                guard reply.status == 200 else {
                    return answer(.failure(BackendError.unavailable(reason: "the breached-password service answered HTTP status \(reply.status)")))
                }
                let counts = Self.counts(in: reply.body)
                if let self { self.ranges.keep(counts, for: key, from: self.now(), during: check.cacheFor) }
                answer(.success(Self.verdict(counts[suffix] ?? 0, check)))
            case .error(let error): answer(.failure(error))
            case .completed: break
            }
        })
    }

    private static func verdict(_ count: Int, _ check: BreachedPasswordCheck) -> CheckVerdict {
        count >= max(1, check.threshold) ? .rejectedWith(params: ["count": .int(Int64(count))]) : .passed
    }

    /// `SUFFIX:COUNT` lines (CRLF or LF); a line in another shape is skipped, a count too large
    /// for `Int` is read as the largest.
    static func counts(in body: [UInt8]) -> [Substring: Int] {
        var counts: [Substring: Int] = [:]
        let text = String(decoding: body, as: UTF8.self)
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let suffix = line[..<colon].uppercased()
            let digits = line[line.index(after: colon)...].trimmingPrefixAndSuffixSpaces
            guard suffix.utf8.count == 35, !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { continue }
            counts[Substring(suffix)] = Int(digits) ?? Int.max
        }
        return counts
    }
}

extension Substring {
    fileprivate var trimmingPrefixAndSuffixSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
