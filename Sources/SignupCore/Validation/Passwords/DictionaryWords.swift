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
        if let answer = password.utf8.withContiguousStorageIfAvailable(containASCII), let answer { return answer }
        let scalars = password.unicodeScalars
        guard let first = scalars.firstIndex(where: \.properties.isAlphabetic),
              let last = scalars.lastIndex(where: \.properties.isAlphabetic) else { return false }
        var widenedFirst = first, widenedLast = last
        while widenedFirst > scalars.startIndex, case let before = scalars.index(before: widenedFirst),
              letter(standingFor: scalars[before]) != nil { widenedFirst = before }
        while case let after = scalars.index(after: widenedLast), after < scalars.endIndex,
              letter(standingFor: scalars[after]) != nil { widenedLast = after }
        return isWord(scalars[first...last]) || (widenedFirst...widenedLast != first...last && isWord(scalars[widenedFirst...widenedLast]))
    }

    /// `contain` for a password all in ASCII, read in place byte by byte, where a letter is
    /// exactly what `isAlphabetic` calls one; nil for a password that is not ASCII.
    private static func containASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.isASCII else { return nil }
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        guard let first = bytes.firstIndex(where: isLetter), let last = bytes.lastIndex(where: isLetter) else { return false }
        var widenedFirst = first, widenedLast = last
        while widenedFirst > 0, letter(standingFor: Unicode.Scalar(bytes[widenedFirst - 1])) != nil { widenedFirst -= 1 }
        while widenedLast + 1 < bytes.count, letter(standingFor: Unicode.Scalar(bytes[widenedLast + 1])) != nil { widenedLast += 1 }
        return isWord(UnsafeBufferPointer(rebasing: bytes[first...last]))
            || ((widenedFirst, widenedLast) != (first, last) && isWord(UnsafeBufferPointer(rebasing: bytes[widenedFirst...widenedLast])))
    }

    /// Whether `core`, read as `contain` says, is a word forwards or backwards.
    private static func isWord(_ core: Substring.UnicodeScalarView) -> Bool {
        // Only ASCII stands for a letter.
        guard core.allSatisfy(\.isASCII) else { return false }
        let bytes = core.map { UInt8($0.value) }
        return bytes.withUnsafeBufferPointer(isWord)
    }

    /// Whether `core` (ASCII), read as `contain` says, is a word forwards or backwards.
    private static func isWord(_ core: UnsafeBufferPointer<UInt8>) -> Bool {
        guard core.count <= words.longest else { return false }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * core.count) { buffer in
            let forwards = UnsafeMutableBufferPointer(rebasing: buffer[..<core.count])
            let backwards = UnsafeMutableBufferPointer(rebasing: buffer[core.count...])
            for index in core.indices {
                guard let letter = letter(standingFor: Unicode.Scalar(core[index])) else { return false }
                forwards[index] = letter
                backwards[core.count - 1 - index] = letter
            }
            if words.contains(UnsafeBufferPointer(forwards)) || words.contains(UnsafeBufferPointer(backwards)) { return true }
            // A 1 read as l as well as i (letter(standingFor:) reads it as i).
            guard core.contains(UInt8(ascii: "1")) else { return false }
            for index in core.indices where core[index] == UInt8(ascii: "1") {
                forwards[index] = UInt8(ascii: "l")
                backwards[core.count - 1 - index] = UInt8(ascii: "l")
            }
            return words.contains(UnsafeBufferPointer(forwards)) || words.contains(UnsafeBufferPointer(backwards))
        }
    }

    /// The lower-case ASCII letter `scalar` is or stands for; nil for any other.
    private static func letter(standingFor scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "a"..."z": UInt8(scalar.value)
        case "A"..."Z": UInt8(scalar.value) + 32
        case "0": UInt8(ascii: "o")
        case "1": UInt8(ascii: "i")
        case "3": UInt8(ascii: "e")
        case "4", "@": UInt8(ascii: "a")
        case "5", "$": UInt8(ascii: "s")
        case "7": UInt8(ascii: "t")
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
