import SignupCore

/// An `http` submit action in a form file (protocol.md §13): the form's own API.
extension FormFile.Reader {
    private static let httpMembers: Set = [
        "action", "url", "method", "body", "headers", "timeoutMs", "secretMembers", "maxAnswerBytes", "messages", "label", "states",
    ]

    func httpSubmit(_ json: JSON, _ path: String) throws(FormFile.Problem) -> SubmitAction {
        let object = try members(json, path, allowed: Self.httpMembers, required: ["action", "url", "messages"])
        let url = try template(object["url"], "\(path).url")
        guard url.description.hasPrefix("https://") || url.description.hasPrefix("http://") else {
            throw fail("\(path).url", "must be an absolute http:// or https:// URL")
        }
        var submission = HTTPSubmission(url: url)
        if let value = object["method"] {
            guard case .string(let text) = value, let method = HTTPSubmission.Method(rawValue: text) else {
                throw fail("\(path).method", "must be \"POST\", \"PUT\" or \"PATCH\"")
            }
            submission.method = method
        }
        if let body = object["body"] {
            try checkTemplates(in: body, "\(path).body")
            submission.body = BackendExchangeJSON.value(body)
        }
        submission.headers = try headers(object["headers"], "\(path).headers")
        if let value = object["timeoutMs"] {
            let timeout = try count(value, "\(path).timeoutMs")
            guard timeout >= 1 else { throw fail("\(path).timeoutMs", "must be at least 1") }
            submission.timeout = .milliseconds(Int64(timeout))
        }
        if let value = object["maxAnswerBytes"] { submission.maxBodyBytes = try count(value, "\(path).maxAnswerBytes") }
        if let value = object["secretMembers"] {
            guard case .array(let items) = value else { throw fail("\(path).secretMembers", "must be an array of member names") }
            for (index, item) in items.enumerated() { submission.secretMembers.insert(try string(item, "\(path).secretMembers[\(index)]")) }
        }
        let kind = SubmitAction.Kind.http(submission)
        let failures = SubmitAction(kind: kind).possibleFailures.map(\.rawValue)
        let texts = try members(object["messages"]!, "\(path).messages", allowed: Set(failures), required: Set(failures))
        var messages: [SubmitAction.Failure: Message] = [:]
        for failure in failures {
            messages[SubmitAction.Failure(rawValue: failure)!] = try message(texts[failure], "\(path).messages.\(failure)")
        }
        return SubmitAction(
            kind: kind, messages: messages,
            texts: try submitTexts(label: object["label"], states: object["states"], path, default: .standard(for: kind)))
    }
}
