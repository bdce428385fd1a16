/// Why an edit was refused.
public enum FormError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownField(String, kind: String)
    case closed

    public var description: String {
        switch self {
        case .unknownField(let field, let kind):
            return "form kind '\(kind)' has no field '\(field)'"
        case .closed:
            return "the form is closed; open a new one"
        }
    }
}
