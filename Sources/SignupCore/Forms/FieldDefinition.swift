import Foundation

/// One field of a form: its local rules, at most one remote check, and its messages.
public struct FieldDefinition: Hashable, Sendable {
    public var name: String
    /// When true an empty value is `empty` (never `ok`); when false an empty value is accepted.
    public var isRequired: Bool
    /// Checked in order at every edit; the first failure is the field's result.
    public var rules: [Rule]
    /// Asked once the value passes every rule and has been quiet for the debounce interval.
    public var remoteCheck: RemoteCheck?
    /// Shown while the value is empty.
    public var emptyMessage: Message
    /// Shown when every rule passes and there is no remote check.
    public var successMessage: Message
    /// Secret values (passwords) are never echoed in any output.
    public var isSecret: Bool
    /// Applied to the value before every rule, comparison and submission.
    public var normalization: Normalization

    /// How a value is normalised before it is judged or submitted.
    public enum Normalization: String, Hashable, Sendable {
        case none
        /// Unicode compatibility composition, so look-alike forms compare (and hash) equal.
        case nfkc

        @inline(__always)
        func apply(to value: String) -> String {
            switch self {
            case .none: return value
            case .nfkc: return value.precomposedStringWithCompatibilityMapping
            }
        }
    }

    public init(
        name: String,
        isRequired: Bool = true,
        rules: [Rule] = [],
        remoteCheck: RemoteCheck? = nil,
        emptyMessage: Message? = nil,
        successMessage: Message? = nil,
        isSecret: Bool = false,
        normalization: Normalization = .none
    ) {
        self.name = name
        self.isRequired = isRequired
        self.rules = rules
        self.remoteCheck = remoteCheck
        self.emptyMessage = emptyMessage ?? Message("\(name).empty", "")
        self.successMessage = successMessage ?? Message("\(name).ok", "")
        self.isSecret = isSecret
        self.normalization = normalization
    }

    /// The value as rules see it.
    public func normalized(_ value: String) -> String {
        normalization.apply(to: value)
    }

    /// The other fields whose values this field's rules read.
    public var dependencies: [String] { rules.flatMap(\.dependencies) }
}
