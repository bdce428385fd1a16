import SignupCore

/// An event at a virtual time, comparable in assertions. Errors compare by their description.
enum Recorded<Value: Equatable>: Equatable, CustomStringConvertible {
    case next(Int64, Value)
    case error(Int64, String)
    case completed(Int64)

    init(_ event: Event<Value>, at time: Int64) {
        switch event {
        case .next(let value): self = .next(time, value)
        case .error(let error): self = .error(time, String(describing: error))
        case .completed: self = .completed(time)
        }
    }

    var description: String {
        switch self {
        case .next(let time, let value): return "next(\(time), \(value))"
        case .error(let time, let message): return "error(\(time), \(message))"
        case .completed(let time): return "completed(\(time))"
        }
    }
}

/// When a test stream was subscribed and disposed (nil while still subscribed).
struct SubscriptionLog: Equatable, CustomStringConvertible {
    var subscribed: Int64
    var disposed: Int64?

    init(_ subscribed: Int64, _ disposed: Int64? = nil) {
        self.subscribed = subscribed
        self.disposed = disposed
    }

    var description: String { "(\(subscribed), \(disposed.map(String.init) ?? "-"))" }
}

struct TestError: Error, CustomStringConvertible {
    var name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { name }
}
