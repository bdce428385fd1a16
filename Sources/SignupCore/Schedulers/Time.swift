/// A span of scheduler time in whole milliseconds: the protocol's unit, so virtual runs stay exact.
///
/// Arithmetic saturates at the bounds of `Int64` rather than trapping: a span can come from
/// input, and an overflowing sum means "later than any clock reaches" (see `TimePoint.horizon`).
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static func milliseconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value) }
    public static func seconds(_ value: Int64) -> TimeSpan {
        TimeSpan(milliseconds: Saturating.multiply(value, 1000))
    }
    public static let zero = TimeSpan(milliseconds: 0)

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        .milliseconds(Saturating.add(lhs.milliseconds, rhs.milliseconds))
    }

    public var description: String { "\(milliseconds)ms" }
}

/// A point on a scheduler's clock, in milliseconds since the clock's origin.
public struct TimePoint: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static let origin = TimePoint(milliseconds: 0)

    /// The latest time a clock reaches: 2^53 − 1 ms (about 285 000 years), the largest whole
    /// number every JSON client reads exactly. A clock never moves past it, and work due after
    /// it never runs; points beyond it exist only as the saturated results of arithmetic.
    public static let horizon = TimePoint(milliseconds: 9_007_199_254_740_991)

    /// Whether a clock can reach this point.
    public var isWithinHorizon: Bool { self <= .horizon }

    public static func < (lhs: TimePoint, rhs: TimePoint) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: TimePoint, rhs: TimeSpan) -> TimePoint {
        TimePoint(milliseconds: Saturating.add(lhs.milliseconds, rhs.milliseconds))
    }
    public static func - (lhs: TimePoint, rhs: TimeSpan) -> TimePoint {
        TimePoint(milliseconds: Saturating.subtract(lhs.milliseconds, rhs.milliseconds))
    }
    public static func - (lhs: TimePoint, rhs: TimePoint) -> TimeSpan {
        .milliseconds(Saturating.subtract(lhs.milliseconds, rhs.milliseconds))
    }

    public var description: String { "@\(milliseconds)ms" }
}

/// Whole-number arithmetic that clamps to the bounds of `Int64` instead of trapping.
enum Saturating {
    static func add(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? (rhs > 0 ? .max : .min) : sum
    }

    static func subtract(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (difference, overflow) = lhs.subtractingReportingOverflow(rhs)
        return overflow ? (rhs < 0 ? .max : .min) : difference
    }

    static func multiply(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow ? ((lhs < 0) == (rhs < 0) ? .max : .min) : product
    }
}
