import SignupServer

extension Recording {
    /// For each input entry, in order, whether it came before the work that fell due in its
    /// millisecond: a recording's times are whole milliseconds, and a keystroke and the end of a
    /// quiet period (or a backend's answer) in the same one happened in some order that the time
    /// alone does not tell. An input came first unless a question or an answer of its millisecond
    /// was recorded before it, or, when the input before it was in an earlier millisecond,
    /// anything of its millisecond was. A replay then runs only the work due before the input's
    /// time, and the rest after it. In a virtual-clock session the inputs moved the clock, so
    /// what fell due came first: none came before.
    var inputsBeforeDueWork: [Bool] { inputOrder.beforeDueWork }

    /// The inputs (by position among the inputs) whose place in `inputsBeforeDueWork` is a guess:
    /// an input after another of its millisecond with only messages out (or withdrawn questions)
    /// between them. Those messages may be the earlier input's own answers, or a quiet period's
    /// end that fell due between the two; only a replay tells (`Replayer.runFindingOrder`).
    var inputsPlacedByGuess: [Int] { inputOrder.guessed }

    /// Both of the above, from one walk of the entries.
    var inputOrder: (beforeDueWork: [Bool], guessed: [Int]) {
        var order: [Bool] = []
        var guessed: [Int] = []
        let isRealTime = header.clock == .real
        var previousInput: Int64?
        // Entries come in time order, so the latest since the last input tells whether any fell
        // in the coming input's millisecond.
        var latestExchange: Int64?
        var latestEntry: Int64?
        for entry in entries {
            switch entry {
            case .input(let time, _):
                let afterInputOfItsMillisecond = previousInput == time
                let workFirst = latestExchange == time || (latestEntry == time && !afterInputOfItsMillisecond)
                if isRealTime && !workFirst && afterInputOfItsMillisecond && latestEntry == time {
                    guessed.append(order.count)
                }
                order.append(isRealTime && !workFirst)
                previousInput = time
                latestExchange = nil
                latestEntry = nil
            case .ask(let time, _, _), .answer(let time, _, _):
                latestExchange = time
                latestEntry = time
            case .output(let time, _), .cancel(let time, _):
                latestEntry = time
            case .end: break
            }
        }
        return (order, guessed)
    }
}
