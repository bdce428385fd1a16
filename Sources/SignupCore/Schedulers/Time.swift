/// A span of scheduler time in whole milliseconds: the protocol's unit, so virtual runs stay exact.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static func milliseconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value) }
    public static func seconds(_ value: Int64) -> TimeSpan { TimeSpan(milliseconds: value * 1000) }
    public static let zero = TimeSpan(milliseconds: 0)

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan { .milliseconds(lhs.milliseconds + rhs.milliseconds) }

    public var description: String { "\(milliseconds)ms" }
}

/// A point on a scheduler's clock, in milliseconds since the clock's origin.
public struct TimePoint: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public static let origin = TimePoint(milliseconds: 0)

    public static func < (lhs: TimePoint, rhs: TimePoint) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: TimePoint, rhs: TimeSpan) -> TimePoint {
        TimePoint(milliseconds: lhs.milliseconds + rhs.milliseconds)
    }
    public static func - (lhs: TimePoint, rhs: TimePoint) -> TimeSpan {
        .milliseconds(lhs.milliseconds - rhs.milliseconds)
    }

    public var description: String { "@\(milliseconds)ms" }
}
