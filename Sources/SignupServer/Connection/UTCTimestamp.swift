import SignupProtocol

/// A wall-clock instant as the trace writes it, RFC 3339 in UTC to the millisecond
/// (`2026-11-27T11:19:02.234Z`), worked out by arithmetic rather than by a date formatter.
struct UTCTimestamp {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    let milliseconds: Int64

    var text: String {
        String(unsafeUninitializedCapacity: Self.length) { fill($0) }
    }

    static let length = 24

    /// Writes the text into `bytes`, which hold at least `length`; returns how many it wrote.
    fileprivate func fill(_ bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let (days, dayMilliseconds) = floorDivision(milliseconds, by: 86_400_000)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        var end = 0
        /// `value` in `digits` digits, then `separator`.
        func put(_ value: Int64, _ digits: Int, _ separator: Unicode.Scalar) {
            var value = Int(value)
            for position in stride(from: end + digits - 1, through: end, by: -1) {
                let (quotient, digit) = value.quotientAndRemainder(dividingBy: 10)
                bytes[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
                value = quotient
            }
            bytes[end + digits] = UInt8(ascii: separator)
            end += digits + 1
        }
        // Years past 9999 and before 0 are written as 9999 and 0: the trace is read by people.
        put(min(max(year, 0), 9_999), 4, "-"); put(month, 2, "-"); put(day, 2, "T")
        put(dayMilliseconds / 3_600_000, 2, ":"); put(dayMilliseconds / 60_000 % 60, 2, ":")
        put(dayMilliseconds / 1_000 % 60, 2, "."); put(dayMilliseconds % 1_000, 3, "Z")
        return end
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivision(days + 719_468, by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Writes a trace record's opening, `{"time":"…Z"`, its connection, and its direction. The time's
/// text is worked out once a millisecond, whatever the connection (under load nearly every record
/// of a millisecond shares it), and kept with the direction after it for records of no connection.
struct RecordHeadCache {
    /// `,"dir":"in"` or `,"dir":"out"`.
    private let direction: StaticString
    private var millisecond: Int64?
    /// `{"time":"…Z"` of `millisecond`, and the same followed by `direction`.
    private var time: [UInt8] = []
    private var timeAndDirection: [UInt8] = []

    init(direction: StaticString) {
        self.direction = direction
    }

    mutating func write(at millisecond: Int64, connection: Int?, to writer: inout JSONWriter) {
        if millisecond != self.millisecond {
            self.millisecond = millisecond
            var opening = JSONWriter(capacity: 64)
            opening.verbatim(#"{"time":""#)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UTCTimestamp.length) { text in
                let count = UTCTimestamp(milliseconds: millisecond).fill(text)
                opening.verbatim(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: text[..<count])))
            }
            opening.verbatim(#"""#)
            time = opening.bytes
            opening.verbatim(direction)
            timeAndDirection = opening.bytes
        }
        guard let connection else { return timeAndDirection.withUnsafeBytes { writer.verbatim($0) } }
        time.withUnsafeBytes { writer.verbatim($0) }
        writer.verbatim(#","connection":"#)
        writer.int(Int64(connection))
        writer.verbatim(direction)
    }
}

/// `value` divided by a positive `divisor`, rounded down, and the remainder, never negative.
private func floorDivision(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let remainder = value % divisor
    return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
}
