import Foundation

/// A `notOneOf` list, folded to lower case once, that tells a value too long to be on it without
/// lower-casing the value.
struct ReservedNames: Sendable {
    private let names: Set<String>
    /// The most scalars any string equal to a name can have: its canonical decomposition's.
    private let longest: Int

    init(_ names: [String]) {
        self.names = Set(names.map { $0.lowercased() })
        longest = self.names.map { $0.decomposedStringWithCanonicalMapping.unicodeScalars.count }.max() ?? 0
    }

    /// The names, lower-cased, in order.
    var sorted: [String] { names.sorted() }

    /// Whether `value`, in any case, is one of the names. Lower-casing never maps a scalar to
    /// none, so a value with more scalars than `longest` cannot be one.
    func contains(_ value: String) -> Bool {
        guard value.unicodeScalars.count <= longest else { return false }
        return names.contains(value.lowercased())
    }
}
