/// Limits on characters (extended grapheme clusters) that stop walking a value once past the
/// limit, and count scalars before breaking a value into characters, which costs far more.
extension String {
    /// Whether the value has more than `limit` characters.
    public func hasMoreCharacters(than limit: Int) -> Bool {
        // A character takes one byte and one scalar at least.
        if utf8.count <= limit { return false }
        guard limit >= 0 else { return true }
        if let count = asciiCharacterCount { return count > limit }
        return Self.has(unicodeScalars, moreElementsThan: limit) && mayStartMoreCharacters(than: limit)
            && Self.has(self, moreElementsThan: limit)
    }

    /// Whether the value has fewer than `limit` characters.
    public func hasFewerCharacters(than limit: Int) -> Bool {
        limit > 0 && !hasMoreCharacters(than: limit - 1)
    }

    /// Whether the value has more than `limit` Unicode code points.
    public func hasMoreCodePoints(than limit: Int) -> Bool {
        // A code point takes one to four bytes.
        if utf8.count <= limit { return false }
        guard limit >= 0 else { return true }
        return Self.has(unicodeScalars, moreElementsThan: limit)
    }

    /// Whether the value has fewer than `limit` Unicode code points.
    public func hasFewerCodePoints(than limit: Int) -> Bool {
        limit > 0 && !hasMoreCodePoints(than: limit - 1)
    }

    /// `count` of an ASCII value, told from its bytes: a character each but `\r\n`; nil for any other.
    private var asciiCharacterCount: Int? {
        utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var pairs = 0
            var previous: UInt8 = 0
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "\n") && previous == UInt8(ascii: "\r") { pairs += 1 }
                previous = byte
            }
            return bytes.count - pairs
        } ?? nil
    }

    /// False when the value certainly has no more than `limit` characters, told without breaking
    /// it into characters: Unicode never breaks before a grapheme extender (rule GB9) unless what
    /// precedes it is a control (GB4).
    func mayStartMoreCharacters(than limit: Int) -> Bool {
        let extenders = GraphemeScalars.extenders, maybeControls = GraphemeScalars.maybeControls
        var starts = 0
        var followsControl = true
        for scalar in unicodeScalars {
            if followsControl || !extenders.contains(scalar) {
                starts += 1
                if starts > limit { return true }
            }
            followsControl = maybeControls.contains(scalar)
        }
        return false
    }

    private static func has<Elements: Collection>(_ elements: Elements, moreElementsThan limit: Int) -> Bool {
        guard let end = elements.index(elements.startIndex, offsetBy: limit, limitedBy: elements.endIndex) else { return false }
        return end != elements.endIndex
    }
}

enum GraphemeScalars {
    /// Scalars no character break comes before, but after a control.
    static let extenders = ScalarSet { $0.properties.isGraphemeExtend }
    /// Every scalar of a category that holds grapheme controls (line and paragraph separators,
    /// controls, format characters, unassigned and surrogate code points), and so more than those.
    static let maybeControls = ScalarSet {
        switch $0.properties.generalCategory {
        case .lineSeparator, .paragraphSeparator, .control, .format, .unassigned, .surrogate: return true
        default: return false
        }
    }
}
