/// The current value of every field, with the edit version that set each one.
///
/// Versions count edits across the whole form, starting at 0 for the values the form opened with,
/// so "newer" is comparable between fields.
struct FormValues {
    var values: [String]
    var versions: [Int]
    var version: Int

    init(values: [String]) {
        self.values = values
        versions = Array(repeating: 0, count: values.count)
        version = 0
    }

    /// These values with one field changed, as the next edit.
    func editing(_ field: Int, to value: String) -> FormValues {
        var next = self
        next.version += 1
        next.values[field] = value
        next.versions[field] = next.version
        return next
    }
}
