extension SecretRedaction {
    /// A line that is not JSON, as the trace and the recording write it: the same length, with
    /// every string's contents masked and everything after the point where it stopped being JSON
    /// masked too (letters and other characters `x`, digits `0`; punctuation, spaces and escapes'
    /// backslashes kept), so that it fails at the same offset for the same reason. Where masking
    /// would change that reason (a lone surrogate's escape, a number cut short), the escape or
    /// number characters at that point, at most 12, are kept as they were. A string refused for
    /// its combining marks becomes one mark (U+0301) over the limit and then `x`s.
    package static func maskedText(_ line: [UInt8], maxDepth: Int) -> [UInt8] {
        let error: JSONParseError?
        do throws(JSONParseError) { _ = try JSONParser.parse(line, maxDepth: maxDepth); error = nil } catch let failure { error = failure }
        let stop = error?.offset ?? line.count
        let masked = masking(line, before: stop, keeping: stop..<stop)
        if let error, case .tooManyCombiningMarks(let limit) = error.reason {
            let marks = withMarks(masked, inStringAt: stop, original: line, count: limit + 1)
            if failsAlike(marks, error, maxDepth: maxDepth) { return marks }
        }
        guard let error, !failsAlike(masked, error, maxDepth: maxDepth) else { return masked }
        let run = line[stop...].prefix(12).prefix(while: Self.isEscapeOrNumberByte).count
        let window = masking(line, before: stop, keeping: stop..<(stop + run))
        return failsAlike(window, error, maxDepth: maxDepth) ? window : masked
    }

    /// `text` with the contents of the string whose quote is at `quote` in `original` replaced by
    /// `count` combining acute accents, then `x`s; as it is when the string is too short for them.
    private static func withMarks(_ text: [UInt8], inStringAt quote: Int, original: [UInt8], count: Int) -> [UInt8] {
        var end = quote + 1
        while end < original.count, original[end] != UInt8(ascii: "\"") {
            end += original[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        let contents = (quote + 1)..<min(end, original.count)
        guard contents.count >= 2 * count else { return text }
        var marked = text
        let accents = [[UInt8]](repeating: [0xCC, 0x81], count: count).joined()
        marked.replaceSubrange(contents, with: Array(accents) + [UInt8](repeating: UInt8(ascii: "x"), count: contents.count - accents.count))
        return marked
    }

    private static func failsAlike(_ text: [UInt8], _ expected: JSONParseError, maxDepth: Int) -> Bool {
        do throws(JSONParseError) { _ = try JSONParser.parse(text, maxDepth: maxDepth); return false } catch {
            return error.offset == expected.offset && error.description == expected.description
        }
    }

    /// `line` with string contents before `stop` masked, the byte at `stop` kept (as `FF` when
    /// it is not ASCII), `kept` kept as it is, and everything else after `stop` masked.
    private static func masking(_ line: [UInt8], before stop: Int, keeping kept: Range<Int>) -> [UInt8] {
        var text = line
        var index = 0
        var inString = false
        while index < min(stop, text.count) {
            let byte = text[index]
            if !inString {
                inString = byte == UInt8(ascii: "\"")
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            } else if byte == UInt8(ascii: "\\"), index + 1 < stop {
                // Before `stop` every escape is whole: `\uXXXX` becomes `\u0078`, the others stay.
                index += 1
                if text[index] == UInt8(ascii: "u"), index + 4 < stop {
                    text.replaceSubrange((index + 1)...(index + 4), with: Array("0078".utf8))
                    index += 4
                }
            } else {
                text[index] = maskedByte(byte)
            }
            index += 1
        }
        if stop < text.count, text[stop] >= 0x80, kept.isEmpty { text[stop] = 0xFF }
        for position in (stop + 1)..<max(stop + 1, text.count) where !kept.contains(position) {
            text[position] = maskedByte(text[position])
        }
        return text
    }

    private static func isEscapeOrNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
             UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"): true
        default: false
        }
    }

    private static func maskedByte(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...: UInt8(ascii: "x")
        default: byte
        }
    }
}
