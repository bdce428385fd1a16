import SignupCore
import SignupProtocol

/// An `http` submit action in a form file (protocol.md §13): the form's own API.
extension FormFile.Reader {
    private static let httpMembers: Set = [
        "action", "url", "method", "body", "headers", "timeoutMs", "secretMembers", "maxAnswerBytes", "messages", "label", "states",
    ]

    func httpSubmit(_ json: JSON, _ path: String) throws(FormFile.Problem) -> SubmitAction {
        let object = try members(json, path, allowed: Self.httpMembers, required: ["action", "url", "messages"])
        var method = HTTPSubmission.Method.post
        if let value = object["method"] {
            guard case .string(let text) = value, let parsed = HTTPSubmission.Method(rawValue: text) else {
                throw fail("\(path).method", "must be \"POST\", \"PUT\" or \"PATCH\"")
            }
            method = parsed
        }
        let request = try httpRequest(object, path)
        var submission = HTTPSubmission(method: method, url: request.url, body: request.body, headers: request.headers)
        if let timeout = request.timeout { submission.timeout = timeout }
        if let limit = request.maxAnswerBytes { submission.maxBodyBytes = limit }
        if let value = object["secretMembers"] {
            guard case .array(let items) = value else { throw fail("\(path).secretMembers", "must be an array of member names") }
            for (index, item) in items.enumerated() { submission.secretMembers.insert(try string(item, "\(path).secretMembers[\(index)]")) }
        }
        let kind = SubmitAction.Kind.http(submission)
        return SubmitAction(
            kind: kind, messages: try failureMessages(of: kind, object["messages"]!, path),
            texts: try submitTexts(label: object["label"], states: object["states"], path, default: .standard(for: kind)))
    }
}
