/// How long a scripted backend takes to answer, in scheduler time.
public enum Latency: Hashable, Sendable {
    case fixed(TimeSpan)
    /// Any whole number of milliseconds in the range, drawn from the directory's seeded generator.
    case uniform(ClosedRange<Int64>)

    public static let none = Latency.fixed(.zero)

    package func sample(using generator: inout SeededGenerator) -> TimeSpan {
        switch self {
        case .fixed(let span): return span
        case .uniform(let range): return .milliseconds(generator.next(in: range))
        }
    }
}
