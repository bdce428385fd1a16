import SignupCore
import SignupProtocol

/// A field's remote checks in a form file (protocol.md §13): `remoteCheck`, one check, or
/// `remoteChecks`, a list asked in order.
extension FormFile.Reader {
    func remoteChecks(one: JSON?, list: JSON?, _ path: String) throws(FormFile.Problem) -> [RemoteCheck] {
        if one != nil, list != nil { throw fail("\(path).remoteChecks", "cannot be given with remoteCheck; list every check here") }
        if let one { return [try remoteCheck(one, "\(path).remoteCheck")] }
        guard let list else { return [] }
        guard case .array(let items) = list, !items.isEmpty else { throw fail("\(path).remoteChecks", "must be a non-empty array of checks") }
        var checks: [RemoteCheck] = []
        for (index, item) in items.enumerated() { checks.append(try remoteCheck(item, "\(path).remoteChecks[\(index)]")) }
        return checks
    }

    private static let messageMembers: Set = ["validating", "passed", "rejected", "unavailable"]
    private static let httpMembers: Set = [
        "method", "url", "body", "headers", "timeoutMs", "answer", "verdictStatuses", "whenUnavailable", "cacheMs", "maxAnswerBytes",
    ]

    /// Each kind's own members, and those it requires.
    private static let kindMembers: [String: (allowed: Set<String>, required: Set<String>)] = [
        UsernameAvailabilityCheck.name: ([], []),
        UniqueCheck.name: ([], []),
        HTTPCheck.name: (httpMembers, ["url", "name"]),
        BreachedPasswordCheck.name: (["baseUrl", "threshold", "timeoutMs", "whenUnavailable", "cacheMs"], []),
    ]

    package func remoteCheck(_ json: JSON, _ path: String) throws(FormFile.Problem) -> RemoteCheck {
        let common = Self.messageMembers.union(["kind", "name", "debounceMs"])
        guard case .string(let kindName)? = json["kind"], let own = Self.kindMembers[kindName] else {
            _ = try members(json, path, allowed: Self.kindMembers.values.reduce(common) { $0.union($1.allowed) })
            throw fail("\(path).kind", "must be \"usernameAvailability\", \"http\", \"unique\" or \"breachedPassword\"")
        }
        let object = try members(
            json, path, allowed: common.union(own.allowed), required: Self.messageMembers.union(["kind"]).union(own.required))
        let kind: RemoteCheck.Kind = switch kindName {
        case HTTPCheck.name: .http(try httpCheck(object, path))
        case UniqueCheck.name: .unique
        case BreachedPasswordCheck.name: .breachedPassword(try breachedPasswordCheck(object, path))
        default: .usernameAvailability
        }
        return RemoteCheck(
            name: try object["name"].map { json throws(FormFile.Problem) in try string(json, "\(path).name") },
            kind: kind,
            debounce: try object["debounceMs"].map { json throws(FormFile.Problem) in .milliseconds(Int64(try count(json, "\(path).debounceMs"))) },
            validating: try message(object["validating"], "\(path).validating"),
            passed: try message(object["passed"], "\(path).passed"),
            rejected: try message(object["rejected"], "\(path).rejected"),
            unavailable: try message(object["unavailable"], "\(path).unavailable"))
    }

    private func breachedPasswordCheck(_ object: [String: JSON], _ path: String) throws(FormFile.Problem) -> BreachedPasswordCheck {
        var check = BreachedPasswordCheck()
        if let value = object["baseUrl"] {
            let base = try string(value, "\(path).baseUrl")
            guard base.hasPrefix("https://") || base.hasPrefix("http://"), !base.contains("{") else {
                throw fail("\(path).baseUrl", "must be an absolute http:// or https:// URL")
            }
            check.baseURL = base
        }
        if let value = object["threshold"] {
            check.threshold = try count(value, "\(path).threshold")
            guard check.threshold >= 1 else { throw fail("\(path).threshold", "must be at least 1") }
        }
        if let value = object["timeoutMs"] {
            let timeout = try count(value, "\(path).timeoutMs")
            guard timeout >= 1 else { throw fail("\(path).timeoutMs", "must be at least 1") }
            check.timeout = .milliseconds(Int64(timeout))
        }
        if let value = object["cacheMs"] { check.cacheFor = .milliseconds(Int64(try count(value, "\(path).cacheMs"))) }
        if let value = object["whenUnavailable"] {
            guard case .string(let text) = value, let parsed = HTTPCheck.WhenUnavailable(rawValue: text) else {
                throw fail("\(path).whenUnavailable", "must be \"unavailable\" or \"pass\"")
            }
            check.whenUnavailable = parsed
        }
        return check
    }

    private func httpCheck(_ object: [String: JSON], _ path: String) throws(FormFile.Problem) -> HTTPCheck {
        var method = HTTPCheck.Method.get
        if let value = object["method"] {
            guard case .string(let text) = value, let parsed = HTTPCheck.Method(rawValue: text) else {
                throw fail("\(path).method", "must be \"GET\" or \"POST\"")
            }
            method = parsed
        }
        if object["body"] != nil, method != .post { throw fail("\(path).body", "is sent with POST only; set \"method\": \"POST\"") }
        let request = try httpRequest(object, path)
        var check = HTTPCheck(method: method, url: request.url, body: request.body, headers: request.headers)
        if let timeout = request.timeout { check.timeout = timeout }
        if let limit = request.maxAnswerBytes { check.maxBodyBytes = limit }
        if let value = object["cacheMs"] { check.cacheFor = .milliseconds(Int64(try count(value, "\(path).cacheMs"))) }
        if let value = object["whenUnavailable"] {
            guard case .string(let text) = value, let parsed = HTTPCheck.WhenUnavailable(rawValue: text) else {
                throw fail("\(path).whenUnavailable", "must be \"unavailable\" or \"pass\"")
            }
            check.whenUnavailable = parsed
        }
        if let value = object["answer"] { check.answer = try answerReading(value, "\(path).answer") }
        if let value = object["verdictStatuses"] {
            guard case .fromBody = check.answer else {
                throw fail("\(path).verdictStatuses", "goes with \"answer\": \"body\" only; list the statuses in answer.rejected")
            }
            check.answer = .fromBody(verdictStatuses: try statuses(value, "\(path).verdictStatuses", in: 400...499))
        }
        return check
    }

    /// The members an `http` check and an `http` submission share: `url`, `body`, `headers`,
    /// `timeoutMs` and `maxAnswerBytes` (nil for each limit left out).
    func httpRequest(_ object: [String: JSON], _ path: String) throws(FormFile.Problem)
        -> (url: TextTemplate, body: JSONValue?, headers: [HTTPCheck.Header], timeout: TimeSpan?, maxAnswerBytes: Int?) {
        let url = try template(object["url"], "\(path).url")
        guard url.description.hasPrefix("https://") || url.description.hasPrefix("http://") else {
            throw fail("\(path).url", "must be an absolute http:// or https:// URL")
        }
        var body: JSONValue?
        if let given = object["body"] {
            try checkTemplates(in: given, "\(path).body")
            body = BackendExchangeJSON.value(given)
        }
        var timeout: TimeSpan?
        if let value = object["timeoutMs"] {
            let milliseconds = try count(value, "\(path).timeoutMs")
            guard milliseconds >= 1 else { throw fail("\(path).timeoutMs", "must be at least 1") }
            timeout = .milliseconds(Int64(milliseconds))
        }
        let limit = try object["maxAnswerBytes"].map { json throws(FormFile.Problem) in try count(json, "\(path).maxAnswerBytes") }
        return (url, body, try headers(object["headers"], "\(path).headers"), timeout, limit)
    }

    func template(_ json: JSON?, _ path: String) throws(FormFile.Problem) -> TextTemplate {
        let text = try string(json, path)
        do throws(TemplateError) {
            return try TextTemplate(text)
        } catch {
            throw fail(path, error.description)
        }
    }

    /// Every string in a body must be a template (its placeholders are checked against the form's fields later).
    func checkTemplates(in json: JSON, _ path: String) throws(FormFile.Problem) {
        switch json {
        case .string(let text):
            do throws(TemplateError) { _ = try TextTemplate(text) } catch { throw fail(path, error.description) }
        case .array(let items):
            for (index, item) in items.enumerated() { try checkTemplates(in: item, "\(path)[\(index)]") }
        case .object(let members):
            for member in members { try checkTemplates(in: member.value, "\(path).\(member.key)") }
        default: break
        }
    }

    /// `{"Authorization": {"env": "INVITE_API_TOKEN", "prefix": "Bearer "}}`: a header's value is
    /// read from the environment, never written in the file.
    package func headers(_ json: JSON?, _ path: String) throws(FormFile.Problem) -> [HTTPCheck.Header] {
        guard let json else { return [] }
        guard case .object(let list) = json else { throw fail(path, "must be an object of header names") }
        var headers: [HTTPCheck.Header] = []
        for member in list {
            let where_ = "\(path).\(member.key)"
            guard !member.key.isEmpty, member.key.utf8.allSatisfy(Self.isTokenByte) else {
                throw fail(where_, "is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
            }
            guard case .object = member.value else {
                throw fail(where_, "must be {\"env\": VARIABLE}: a header's value comes from the environment, never from the file")
            }
            let header = try members(member.value, where_, allowed: ["env", "prefix"], required: ["env"])
            let variable = try string(header["env"], "\(where_).env")
            guard Self.isVariableName(variable) else { throw fail("\(where_).env", "is not an environment variable's name") }
            var prefix = ""
            if let value = header["prefix"] {
                guard case .string(let text) = value, !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                    throw fail("\(where_).prefix", "must be a string without control characters")
                }
                prefix = text
            }
            headers.append(HTTPCheck.Header(name: member.key, environmentVariable: variable, prefix: prefix))
        }
        return headers
    }

    /// `"body"` (the default), or `{"passed": [statuses], "rejected": [statuses]}`.
    private func answerReading(_ json: JSON, _ path: String) throws(FormFile.Problem) -> CheckAnswerReading {
        if case .string("body") = json { return .body }
        guard case .object = json else { throw fail(path, "must be \"body\" or {\"passed\": [statuses], \"rejected\": [statuses]}") }
        let object = try members(json, path, allowed: ["passed", "rejected"], required: ["passed", "rejected"])
        let passed = try statuses(object["passed"], "\(path).passed", in: 100...599)
        let rejected = try statuses(object["rejected"], "\(path).rejected", in: 100...599)
        if let both = passed.intersection(rejected).min() { throw fail("\(path).rejected", "lists \(both), which passed lists too") }
        return .status(passed: passed, rejected: rejected)
    }

    /// An array of HTTP statuses, each in `range`.
    private func statuses(_ json: JSON?, _ path: String, in range: ClosedRange<Int64>) throws(FormFile.Problem) -> Set<Int> {
        guard case .array(let items)? = json else { throw fail(path, "must be an array of HTTP statuses") }
        var statuses = Set<Int>()
        for (index, item) in items.enumerated() {
            guard let status = item.int64, range.contains(status) else {
                throw fail("\(path)[\(index)]", "must be an HTTP status, \(range.lowerBound) to \(range.upperBound)")
            }
            statuses.insert(Int(status))
        }
        return statuses
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
