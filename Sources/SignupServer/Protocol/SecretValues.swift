/// Where a message carries the values of a form's fields, which may be secret: `form.edit`'s
/// `value`, and the members of `form.open`'s `values` and `record`. The trace and the recording
/// hide them, each in its own way.
enum SecretValues {
    /// The field a value belongs to: its name, and the form's id and kind as the message names them.
    struct Place: Hashable {
        var field: String
        var form: String?
        var kind: String?
    }

    /// `message` with each field value replaced by what `replace` gives for it (nil keeps it);
    /// batches element by element.
    static func replacing(in message: JSON, _ replace: (_ value: JSON, _ place: Place) -> JSON?) -> JSON {
        switch message {
        case .array(let elements): return .array(elements.map { replacing(in: $0, replace) })
        case .object(var members):
            guard case .string(let method)? = message["method"],
                  let index = members.firstIndex(where: { $0.key == "params" }),
                  case .object(var params) = members[index].value else { return message }
            let form: String? = if case .string(let name)? = members[index].value["form"] { name } else { nil }
            switch method {
            case "form.edit":
                guard case .string(let field)? = members[index].value["field"] else { return message }
                for position in params.indices where params[position].key == "value" {
                    if let hidden = replace(params[position].value, Place(field: field, form: form)) { params[position].value = hidden }
                }
            case "form.open":
                let kind: String? = if case .string(let name)? = members[index].value["kind"] { name } else { nil }
                for position in params.indices where params[position].key == "values" || params[position].key == "record" {
                    guard case .object(var values) = params[position].value else { continue }
                    for valueIndex in values.indices {
                        let place = Place(field: values[valueIndex].key, form: form, kind: kind)
                        if let hidden = replace(values[valueIndex].value, place) { values[valueIndex].value = hidden }
                    }
                    params[position].value = .object(values)
                }
            default: return message
            }
            members[index].value = .object(params)
            return .object(members)
        default: return message
        }
    }
}
