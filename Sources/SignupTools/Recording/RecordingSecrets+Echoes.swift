import SignupCore
import SignupProtocol

/// A backend may echo what it was sent: a check's message quoting the code it refused, an API's
/// validation error quoting the rejected password. Each question's secret values are kept until
/// its answer, replaced wherever they stand in that answer's texts, and watched for in messages
/// out from then on, since the server passes such texts on to the client.
extension RecordingSecrets {
    /// `question` as recorded (`hiding(in:)`), keeping the secrets it sends for its answer.
    mutating func hiding(in question: BackendQuestion, number: Int) -> BackendQuestion {
        let hidden = hiding(in: question)
        let sent = Self.values(of: question).filter { !$0.isEmpty && isSecret($0) }
        if !sent.isEmpty { sentSecrets[number] = sent }
        return hidden
    }

    /// `answer` as recorded (`hiding(in:)`), with the secrets its question sent replaced where
    /// they stand in its texts.
    mutating func hiding(in answer: BackendAnswer, number: Int) -> BackendAnswer {
        let hidden = hiding(in: answer)
        guard let sent = sentSecrets.removeValue(forKey: number) else { return hidden }
        var watched = WatchedSecrets()
        for secret in sent { watched.insert(Array(secret.utf8)) }
        var echoed: Set<String> = []
        let replaced = Self.mappingTexts(of: hidden) { text in
            watched.replacingOccurrences(in: text) { secret in
                echoed.insert(secret)
                return placeholderOrMask(secret)
            } ?? text
        }
        for secret in echoed { watchInOutput(secret) }
        return replaced
    }

    /// The question was withdrawn: no answer will echo it.
    mutating func questionCancelled(_ number: Int) {
        sentSecrets[number] = nil
    }

    private static func values(of question: BackendQuestion) -> [String] {
        switch question {
        case .availability(let username): [username]
        case .registration(let username, let password), .login(let username, let password): [username, password]
        case .check(_, let inputs): Array(inputs.values)
        case .submission(_, let fields): Array(fields.values)
        case .addFriend, .updateFriend: []
        }
    }

    /// `answer` with `transform` applied to each text a backend wrote in it.
    private static func mappingTexts(of answer: BackendAnswer, _ transform: (String) -> String) -> BackendAnswer {
        func map(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): .string(transform(text))
            case .array(let elements): .array(elements.map(map))
            case .object(let members): .object(members.mapValues(map))
            case .null, .bool, .int, .double: value
            }
        }
        switch answer {
        case .verdict(.rejected(let issue?)):
            var issue = issue
            issue.message = transform(issue.message)
            issue.params = issue.params.mapValues(map)
            return .verdict(.rejected(issue))
        case .verdict(.rejectedWith(let params)): return .verdict(.rejectedWith(params: params.mapValues(map)))
        case .registration(.registered(let account)): return .registration(.registered(account: map(account)))
        case .submission(.accepted(let result)): return .submission(.accepted(map(result)))
        case .submission(.refused(let status, let body)): return .submission(.refused(status: status, body: body.map(map)))
        case .failure(.unavailable(let reason)): return .failure(.unavailable(reason: transform(reason)))
        default: return answer
        }
    }
}
