import CICU
import Synchronization

/// A regular expression (ICU syntax) compiled once and shared by every form that uses it; it
/// judges whole values, or searches them, within a `MatchBudget`.
package final class CompiledPattern: Sendable {
    /// ICU's compiled expression, which one thread at a time may match with.
    private let expression: Mutex<OpaquePointer>

    /// Nil when `pattern` does not compile (or ICU cannot be loaded).
    private init?(_ pattern: String) {
        let units = Array(pattern.utf16)
        guard let compiled = units.withUnsafeBufferPointer({ signup_pattern_compile($0.baseAddress, Int32(clamping: $0.count)) })
        else { return nil }
        expression = Mutex(compiled)
    }

    deinit {
        expression.withLock { signup_pattern_free($0) }
    }

    /// Whether all of `value` matches, as far as `budget` lets the engine find out; the match's
    /// cost is charged to it.
    func judge(wholly value: String, within budget: MatchBudget) -> CheckOutcome {
        run(value, within: budget, wholly: true)
    }

    /// Whether some part of `value` matches (unanchored), within `budget`.
    package func judge(searching value: String, within budget: MatchBudget) -> CheckOutcome {
        run(value, within: budget, wholly: false)
    }

    private func run(_ value: String, within budget: MatchBudget, wholly: Bool) -> CheckOutcome {
        let allowance = budget.allowance
        guard allowance > 0 else { return .tooCostly }
        let units = Array(value.utf16)
        var steps: Int32 = 0
        let outcome = expression.withLock { expression in
            units.withUnsafeBufferPointer { text in
                wholly
                    ? signup_pattern_matches_whole(expression, text.baseAddress, Int32(clamping: text.count), Int32(clamping: allowance), &steps)
                    : signup_pattern_finds(expression, text.baseAddress, Int32(clamping: text.count), Int32(clamping: allowance), &steps)
            }
        }
        budget.charge(steps: Int(steps))
        switch outcome {
        case signup_match_yes: return .passes
        case signup_match_no: return .fails
        default: return .tooCostly
        }
    }

    private static let compiled = Mutex<[String: CompiledPattern]>([:])

    /// The pattern compiled, from the process's cache; nil when it does not compile.
    package static func named(_ pattern: String) -> CompiledPattern? {
        compiled.withLock { cache in
            if let known = cache[pattern] { return known }
            guard let new = CompiledPattern(pattern) else { return nil }
            cache[pattern] = new
            return new
        }
    }
}

/// What one check says of a value.
package enum CheckOutcome: Equatable {
    case passes
    case fails
    /// A pattern could not decide within its `MatchBudget`.
    case tooCostly

    package static func passing(_ passes: Bool) -> CheckOutcome { passes ? .passes : .fails }
}
