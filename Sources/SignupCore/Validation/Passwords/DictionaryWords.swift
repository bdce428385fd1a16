import Foundation

/// Passwords built on a dictionary word (NIST SP 800-63B rev. 4 §3.1.1.2): the word itself,
/// reversed, with digits or symbols standing for letters, or with digits, symbols or spaces
/// before or after it. The dictionary ships inside the binary (`DictionaryWordList.swift`,
/// zxcvbn's word lists), so every machine judges a password alike.
///
/// A password is judged in one pass over its scalars and a few binary searches: no question
/// costs more than a line's other work, so it takes nothing of a message's `MatchBudget`.
enum DictionaryWords {
    /// Whether `password` is built on a word of the dictionary. Its core is what is left once
    /// every character that is not a letter is taken from both ends, and that core widened by the
    /// digits and symbols that stand for letters next to it (`3l3phant`); either, lower-cased,
    /// with 0 1 3 4 5 7 @ $ read as o i|l e a s t a s, forwards or backwards, may be the word.
    static func contain(_ password: String) -> Bool {
        // An ASCII password is read in place, byte by byte, where a letter is exactly what
        // `isAlphabetic` calls one; any other, scalar by scalar.
        let ascii = password.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.isASCII ? containWord(in: bytes, isLetter: { ($0 | 0x20) &- UInt8(ascii: "a") < 26 }, ascii: { $0 }) : nil
        }
        if let ascii, let answer = ascii { return answer }
        return containWord(in: password.unicodeScalars, isLetter: \.properties.isAlphabetic, ascii: { $0.isASCII ? UInt8($0.value) : nil })
    }

    /// `contain` over `units` (a password's bytes or scalars): `isLetter` tells its letters, and
    /// `ascii` gives a unit's ASCII byte (nil for any other, which stands for no letter).
    private static func containWord<Units: BidirectionalCollection>(
        in units: Units, isLetter: (Units.Element) -> Bool, ascii: (Units.Element) -> UInt8?
    ) -> Bool {
        func standsForLetter(_ unit: Units.Element) -> Bool { ascii(unit).flatMap(letter(standingFor:)) != nil }
        guard let first = units.firstIndex(where: isLetter), let last = units.lastIndex(where: isLetter) else { return false }
        var widenedFirst = first, widenedLast = last
        while widenedFirst > units.startIndex, case let before = units.index(before: widenedFirst), standsForLetter(units[before]) {
            widenedFirst = before
        }
        while case let after = units.index(after: widenedLast), after < units.endIndex, standsForLetter(units[after]) {
            widenedLast = after
        }
        return isWord(units[first...last], ascii: ascii)
            || ((widenedFirst, widenedLast) != (first, last) && isWord(units[widenedFirst...widenedLast], ascii: ascii))
    }

    /// Whether `core`, read as `contain` says, is a word forwards or backwards: its letters, both
    /// ways, in one stack buffer.
    private static func isWord<Core: Collection>(_ core: Core, ascii: (Core.Element) -> UInt8?) -> Bool {
        let count = core.count
        guard count <= words.longest else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * count) { buffer in
            let forwards = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            let backwards = UnsafeMutableBufferPointer(rebasing: buffer[count...])
            var hasOne = false
            for (index, unit) in core.enumerated() {
                guard let byte = ascii(unit), let letter = letter(standingFor: byte) else { return false }
                forwards[index] = letter
                backwards[count - 1 - index] = letter
                hasOne = hasOne || byte == UInt8(ascii: "1")
            }
            if words.contains(UnsafeBufferPointer(forwards)) || words.contains(UnsafeBufferPointer(backwards)) { return true }
            // A 1 read as l as well as i (letter(standingFor:) reads it as i).
            guard hasOne else { return false }
            for (index, unit) in core.enumerated() where ascii(unit) == UInt8(ascii: "1") {
                forwards[index] = UInt8(ascii: "l")
                backwards[count - 1 - index] = UInt8(ascii: "l")
            }
            return words.contains(UnsafeBufferPointer(forwards)) || words.contains(UnsafeBufferPointer(backwards))
        }
    }

    /// The lower-case ASCII letter the ASCII `byte` is or stands for; nil for any other.
    private static func letter(standingFor byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        case UInt8(ascii: "0"): UInt8(ascii: "o")
        case UInt8(ascii: "1"): UInt8(ascii: "i")
        case UInt8(ascii: "3"): UInt8(ascii: "e")
        case UInt8(ascii: "4"), UInt8(ascii: "@"): UInt8(ascii: "a")
        case UInt8(ascii: "5"), UInt8(ascii: "$"): UInt8(ascii: "s")
        case UInt8(ascii: "7"): UInt8(ascii: "t")
        default: nil
        }
    }

    /// The shipped words, indexed on first use (about 0.3 MiB of line offsets).
    static let words = SortedLines(shippedWords)
}

/// The lines of a text sorted by byte, found by binary search without a copy of each.
struct SortedLines: Sendable {
    private let text: String
    /// Where each line begins in `text`'s UTF-8, and where the text ends.
    private let starts: [Int32]
    /// The most bytes a line has.
    let longest: Int

    init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        var starts: [Int32] = [0]
        var longest = 0
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
                longest = max(longest, offset - Int(starts[starts.count - 1]))
                starts.append(Int32(offset + 1))
            }
            if Int(starts[starts.count - 1]) < bytes.count {
                longest = max(longest, bytes.count - Int(starts[starts.count - 1]))
                starts.append(Int32(bytes.count + 1))
            }
        }
        self.text = text
        self.starts = starts
        self.longest = longest
    }

    /// The number of lines.
    var count: Int { starts.count - 1 }

    /// Whether `line` is one of the lines.
    func contains(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer(contains)
    }

    /// Whether `line` is one of the lines: a binary search, comparing bytes in place.
    func contains(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count <= longest else { return false }
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                let start = Int(starts[middle]), length = Int(starts[middle + 1]) - 1 - start
                let shared = min(length, line.count)
                var order = shared == 0 ? 0 : memcmp(bytes.baseAddress! + start, line.baseAddress!, shared)
                if order == 0 { order = length == line.count ? 0 : length < line.count ? -1 : 1 }
                if order == 0 { return true }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return false
        } ?? false
    }
}
