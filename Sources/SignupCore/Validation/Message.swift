import Foundation

/// A result's code with the English template of its message; `{name}` placeholders are filled
/// from the result's parameters.
public struct Message: Hashable, Sendable {
    public var code: String
    public var template: String

    public init(_ code: String, _ template: String) {
        self.code = code
        self.template = template
    }

    /// The message with its placeholders replaced by the parameters' values.
    public func render(_ params: [String: JSONValue] = [:]) -> String {
        guard !params.isEmpty, template.contains("{") else { return template }
        var text = template
        for (name, value) in params {
            text = text.replacingOccurrences(of: "{\(name)}", with: value.templateText)
        }
        return text
    }

    /// A field result in `state` carrying this message.
    public func result(_ state: FieldState, _ params: [String: JSONValue] = [:]) -> FieldResult {
        FieldResult(state: state, code: code, params: params, message: render(params))
    }
}
