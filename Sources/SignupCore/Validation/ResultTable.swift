/// A position in a `ResultTable`: which of its form's rendered results a field shows.
struct ResultID: Hashable, Sendable {
    fileprivate let position: Int32
}

/// Every result a form's fields can show, rendered once per kind and locale. A form's state and
/// verdicts hold positions in it, so judging a keystroke and keeping its result count no
/// references; only an event takes the result itself. Equal results share one position, so
/// comparing positions is comparing results.
struct ResultTable: Sendable {
    private var results: [FieldResult] = []
    /// Beside the results, so counting `ok` and `validating` fields reads no result.
    private var states: [FieldState] = []
    private var positions: [FieldResult: ResultID] = [:]

    /// The position of `result`, added if no equal result is in the table yet.
    mutating func add(_ result: FieldResult) -> ResultID {
        if let id = positions[result] { return id }
        let id = ResultID(position: Int32(results.count))
        results.append(result)
        states.append(result.state)
        positions[result] = id
        return id
    }

    subscript(id: ResultID) -> FieldResult {
        results[Int(id.position)]
    }

    func state(of id: ResultID) -> FieldState {
        states[Int(id.position)]
    }
}
