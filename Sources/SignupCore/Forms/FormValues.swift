/// The current value of every field, with the edit version that set each one.
///
/// Versions count edits across the whole form, starting at 0 for the values the form opened with,
/// so "newer" is comparable between fields.
struct FormValues {
    private(set) var values: [String]
    private(set) var version: Int

    init(values: [String]) {
        self.values = values
        version = 0
    }

    /// Sets one field's value as the next edit.
    mutating func edit(_ field: Int, to value: String) {
        version += 1
        values[field] = value
    }
}
