import SignupCore
import SignupProtocol

/// The `format` values asserted where a dialect or a validation asks (validation §7.3), as
/// SignupCore's `StringFormat` judges strings; any other instance passes a known format.
enum SchemaFormat {
    /// Whether `instance` is of `format`; nil when the format is not one of those asserted.
    static func check(_ format: String, _ instance: JSON) -> Bool? {
        guard case .string(let text) = instance else { return StringFormat.known.contains(format) ? true : nil }
        return StringFormat.check(format, text)
    }
}
