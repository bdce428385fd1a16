/// The pattern matching one incoming message may do: a server renews it for every line it reads
/// (a batch is one line), so that no message holds the loop that serves every form for long.
///
/// Work is counted in ICU's steps (10 000 operations of its match engine each, the same count on
/// every machine). A match costs the whole steps it spent plus one, for the part of a step no
/// count shows; it may spend at most `stepsPerMatch`, and none once the message's budget is spent.
/// A match stopped either way judges its value `tooCostly`. The password rules that cost more
/// than a few microseconds pay from the same budget (`pay`), by what they will cost.
public final class MatchBudget {
    /// About 40 ms of matching on a 2 GHz core (a step takes 0.1–0.2 ms), which leaves room for
    /// the rest of a line's work within 100 ms.
    public static let stepsPerMessage = 256
    /// About 10 ms: one catastrophic pattern cannot spend a message's whole budget.
    public static let stepsPerMatch = 64

    public let stepsPerMessage: Int
    public let stepsPerMatch: Int
    /// The steps left to this message. Private, with the public face below, so that the compiler
    /// sees every access and checks them statically rather than at run time.
    private var left: Int
    public var remaining: Int { left }

    public init(stepsPerMessage: Int = MatchBudget.stepsPerMessage, stepsPerMatch: Int = MatchBudget.stepsPerMatch) {
        self.stepsPerMessage = max(stepsPerMessage, 0)
        self.stepsPerMatch = max(stepsPerMatch, 1)
        left = self.stepsPerMessage
    }

    /// Gives the next message the whole budget again.
    public func renew() {
        left = stepsPerMessage
    }

    /// The steps the next match may spend; 0 when the budget is spent.
    var allowance: Int { min(stepsPerMatch, left) }

    /// Takes a match's cost: the steps it spent plus one.
    func charge(steps: Int) {
        left -= min(left, max(steps, 0) + 1)
    }

    /// Takes `steps` for work other than a match whose cost is known before it starts (a
    /// dictionary lookup, a similarity measure); false, taking nothing, when what is left of the
    /// message's budget cannot pay them: the value is then judged `tooCostly`.
    func pay(_ steps: Int) -> Bool {
        guard steps <= left else { return false }
        left -= steps
        return true
    }
}
