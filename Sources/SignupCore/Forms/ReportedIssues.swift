import Foundation

/// A problem a backend reported with what it was sent: about one field of the form, or about the
/// whole (`field` nil). What a form shows for it: a code, a message and the message's params.
public struct ReportedIssue: Hashable, Sendable {
    public var field: String?
    public var code: String
    public var message: String
    public var params: [String: JSONValue]

    public init(field: String?, code: String, message: String, params: [String: JSONValue] = [:]) {
        self.field = field
        self.code = code
        self.message = message
        self.params = params
    }

    /// The code of an issue about a field whose report gives none.
    public static let fieldCodeGivenByNone = "server.invalid"
    /// The code of an issue about the whole whose report gives none.
    public static let formCodeGivenByNone = "server.refused"
}

/// Reads the issues in the body of a refused request (a 4xx answer), in the three formats that
/// backends commonly use, and places each on the form field it points at:
///
/// - RFC 9457 problem details with an `errors` array of `{"pointer", "detail", "code"?}`, any
///   other member of an error becoming a param; a problem without `errors` is one issue about
///   the whole, from its `detail` (or `title`) and `code`; so is any object with a string
///   `code` beside a `detail`, `title` or `message` (`{"detail": …, "code": …}`);
/// - JSON:API: `errors` of `{"code"?, "title", "detail"?, "source": {"pointer"}, "meta"?}`, whose
///   `meta` members become params;
/// - Django REST framework and Rails: an object of field names to lists of messages (or one
///   message), directly or under `errors`; `non_field_errors`, `base` and `detail` are about the
///   whole.
///
/// A pointer (RFC 6901, also as a URI fragment) names the field of its last token; a pointer to
/// anything that is not a field of the form (or none) makes an issue about the whole.
public enum ReportedIssues {
    /// The issues in `body` in the order the report gives them (for field-keyed reports, the
    /// form's field order, then the issues about the whole); nil when `body` is in none of the
    /// formats.
    public static func read(_ body: JSONValue, fields: [String]) -> [ReportedIssue]? {
        guard case .object(let members) = body else { return nil }
        if case .array(let errors)? = members["errors"] {
            let issues = errors.compactMap { issue(fromError: $0, fields: fields) }
            return issues.isEmpty ? nil : issues
        }
        if case .object(let keyed)? = members["errors"] { return issues(keyedByField: keyed, fields: fields) }
        // A problem about the whole: RFC 9457's (`type`, `title` or `status`), or any object that
        // gives its own `code` beside a `detail`, `title` or `message`.
        if members["type"] != nil || members["title"] != nil || members["status"] != nil || text(members["code"]) != nil,
           let message = text(members["detail"]) ?? text(members["title"]) ?? text(members["message"]) {
            return [ReportedIssue(field: nil, code: text(members["code"]) ?? ReportedIssue.formCodeGivenByNone, message: message)]
        }
        return issues(keyedByField: members, fields: fields)
    }

    /// One element of an `errors` array, RFC 9457's or JSON:API's.
    private static func issue(fromError error: JSONValue, fields: [String]) -> ReportedIssue? {
        guard case .object(let members) = error, let message = text(members["detail"]) ?? text(members["title"]) else { return nil }
        var pointer = text(members["pointer"])
        if pointer == nil, case .object(let source)? = members["source"] { pointer = text(source["pointer"]) }
        let field = pointer.flatMap { Self.field(at: $0, fields: fields) }
        var params: [String: JSONValue] = [:]
        if case .object(let meta)? = members["meta"] { params = meta }
        for (name, value) in members where !errorMembers.contains(name) { params[name] = value }
        let code = text(members["code"]) ?? (field == nil ? ReportedIssue.formCodeGivenByNone : ReportedIssue.fieldCodeGivenByNone)
        return ReportedIssue(field: field, code: code, message: message, params: params)
    }

    /// The members of an error that are not params: RFC 9457's and JSON:API's own.
    private static let errorMembers: Set = ["pointer", "detail", "code", "title", "status", "source", "meta", "id", "links", "type"]

    /// Django REST framework's and Rails' shape: a field's name to its messages.
    private static func issues(keyedByField members: [String: JSONValue], fields: [String]) -> [ReportedIssue]? {
        var issues: [ReportedIssue] = []
        for field in fields {
            for message in messages(members[field]) {
                issues.append(ReportedIssue(field: field, code: ReportedIssue.fieldCodeGivenByNone, message: message))
            }
        }
        // Keys that are no field, in a fixed order: the object's own order is not kept.
        for name in members.keys.sorted() where !fields.contains(name) {
            for message in messages(members[name]) {
                issues.append(ReportedIssue(field: nil, code: ReportedIssue.formCodeGivenByNone, message: message))
            }
        }
        return issues.isEmpty ? nil : issues
    }

    private static func messages(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let message)?: return [message]
        case .array(let items)?: return items.compactMap(text)
        default: return []
        }
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// The field a JSON pointer's last token names, if the form has it.
    static func field(at pointer: String, fields: [String]) -> String? {
        var path = Substring(pointer)
        if path.hasPrefix("#") {
            path = path.dropFirst()
            guard let decoded = String(path).removingPercentEncoding else { return nil }
            path = Substring(decoded)
        }
        guard path.hasPrefix("/"), let last = path.split(separator: "/", omittingEmptySubsequences: false).last else { return nil }
        let token = last.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        return fields.contains(token) ? token : nil
    }
}

extension ReportedIssue {
    /// The issue with every occurrence of each of `secrets` in its message and its params' strings
    /// written `[secret]`: a backend that echoes a password back never has it shown.
    func hiding(_ secrets: [String]) -> ReportedIssue {
        guard !secrets.isEmpty else { return self }
        func hide(_ text: String) -> String {
            var hidden = text
            for secret in secrets where hidden.contains(secret) { hidden = hidden.replacingOccurrences(of: secret, with: "[secret]") }
            return hidden
        }
        return ReportedIssue(field: field, code: code, message: hide(message), params: params.mapValues { $0.mappingStrings(hide) })
    }

    /// What a field shows for this issue: `failed`, with its code, params and message, the message's
    /// `{param}` placeholders filled in from the params (`Message.render`).
    var failedResult: FieldResult {
        Message(code, message).result(.failed, params)
    }
}
