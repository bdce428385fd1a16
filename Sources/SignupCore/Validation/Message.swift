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

    /// The message with its placeholders replaced by the parameters' values, in one pass: a
    /// placeholder naming no parameter stays as it is, and a value's own braces are left alone,
    /// so a long message with many parameters (a backend's) costs its length, not their product.
    public func render(_ params: [String: JSONValue] = [:]) -> String {
        guard !params.isEmpty, template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var text = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                  let value = params[String(rest[afterOpen..<close])] else {
                text.append("{")
                rest = rest[afterOpen...]
                continue
            }
            text += value.templateText
            rest = rest[rest.index(after: close)...]
        }
        return text + rest
    }

    /// A field result in `state` carrying this message.
    public func result(_ state: FieldState, _ params: [String: JSONValue] = [:]) -> FieldResult {
        FieldResult(state: state, code: code, params: params, message: render(params))
    }
}
