/// A position in a `ResultTable`: which of its form's rendered results a field shows, with that
/// result's state beside it, so that counting `ok` and `validating` fields reads no table.
struct ResultID: Hashable, Sendable {
    fileprivate let position: Int32
    let state: FieldState

    /// A failure a backend reported, which no table holds: the form keeps it beside the field.
    static let reported = ResultID(position: -1, state: .failed)
}

/// Every result a form's fields can show, rendered once per kind and locale. A form's state and
/// verdicts hold positions in it, so judging a keystroke and keeping its result count no
/// references; only an event takes the result itself. Equal results share one position, so
/// comparing positions is comparing results.
struct ResultTable: Sendable {
    private var results: [FieldResult] = []
    private var positions: [FieldResult: ResultID] = [:]

    /// The position of `result`, added if no equal result is in the table yet.
    mutating func add(_ result: FieldResult) -> ResultID {
        if let id = positions[result] { return id }
        let id = ResultID(position: Int32(results.count), state: result.state)
        results.append(result)
        positions[result] = id
        return id
    }

    subscript(id: ResultID) -> FieldResult {
        results[Int(id.position)]
    }
}
