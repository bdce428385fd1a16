import SignupCore

/// Backend questions and answers as a recording (and a directory file's `replies`) spells them:
/// `{"call":"availability","username":…}`, `{"availability":"taken"}`, `{"error":"timedOut"}`…
package enum BackendExchangeJSON {
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    package static func write(_ question: BackendQuestion, to writer: inout JSONWriter) {
        writer.key("call"); writer.string(question.call)
        switch question {
        case .availability(let username):
            writer.key("username"); writer.string(username)
        case .registration(let username, let password), .login(let username, let password):
            writer.key("username"); writer.string(username)
            writer.key("password"); writer.string(password)
        case .addFriend(let friend):
            writer.key("friend"); write(friend, to: &writer)
        case .updateFriend(let id, let friend):
            writer.key("id"); writer.string(id)
            writer.key("friend"); write(friend, to: &writer)
        case .check(let name, let inputs):
            writer.key("check"); writer.string(name)
            writer.key("inputs"); write(inputs, to: &writer)
        case .submission(let kind, let fields):
            writer.key("kind"); writer.string(kind)
            writer.key("fields"); write(fields, to: &writer)
        }
    }

    package static func write(_ answer: BackendAnswer, to writer: inout JSONWriter) {
        switch answer {
        case .availability(let availability):
            writer.key("availability"); writer.string(availability.rawValue)
        case .registration(.registered(let account)):
            writer.key("registration"); writer.string("registered")
            writer.key("account"); writer.value(account)
        case .registration(.usernameTaken):
            writer.key("registration"); writer.string("usernameTaken")
        case .registration(.fieldTaken(let field)):
            writer.key("registration"); writer.string("fieldTaken")
            writer.key("field"); writer.string(field)
        case .registration(.refused(let reason, let details)):
            writer.key("registration"); writer.string("refused")
            writer.key("reason"); writer.string(reason)
            writer.key("details"); writer.fields(details)
        case .login(.loggedIn(let token)):
            writer.key("login"); writer.string("loggedIn")
            writer.key("token"); writer.string(token)
        case .login(.wrongCredentials): writer.key("login"); writer.string("wrongCredentials")
        case .login(.rateLimited): writer.key("login"); writer.string("rateLimited")
        case .friend(.saved(let id)):
            writer.key("friend"); writer.string("saved")
            writer.key("id"); writer.string(id)
        case .friend(.notFound): writer.key("friend"); writer.string("notFound")
        case .friend(.unauthorised): writer.key("friend"); writer.string("unauthorised")
        case .friend(.conflict): writer.key("friend"); writer.string("conflict")
        case .verdict(.passed): writer.key("verdict"); writer.string("passed")
        case .verdict(.rejectedWith(let params)):
            writer.key("verdict"); writer.string("rejected")
            writer.key("params"); writer.fields(params)
        case .verdict(.rejected(let issue)):
            writer.key("verdict"); writer.string("rejected")
            if let issue {
                writer.key("code"); writer.string(issue.code)
                writer.key("message"); writer.string(issue.message)
                writer.key("params"); writer.fields(issue.params)
            }
        case .submission(.accepted(let result)):
            writer.key("submission"); writer.string("accepted")
            writer.key("result"); writer.value(result)
        case .submission(.refused(let status, let body)):
            writer.key("submission"); writer.string("refused")
            writer.key("status"); writer.int(status)
            if let body { writer.key("body"); writer.value(body) }
        case .failure(.unavailable(let reason)):
            writer.key("error"); writer.string("unavailable")
            writer.key("reason"); writer.string(reason)
        case .failure(.timedOut):
            writer.key("error"); writer.string("timedOut")
        case .failure(.checkBudgetExceeded(let exceeded)):
            writer.key("error"); writer.string("checkBudgetExceeded")
            writer.key("retryAfter"); writer.int(exceeded.retryAfter)
        }
    }

    /// An object of strings, by sorted name, so a recording is the same every run.
    private static func write(_ strings: [String: String], to writer: inout JSONWriter) {
        writer.object { members in
            for member in strings.sorted(by: { $0.key < $1.key }) {
                members.key(escaping: member.key); members.string(member.value)
            }
        }
    }

    private static func write(_ friend: Friend, to writer: inout JSONWriter) {
        writer.object { body in
            body.key("firstName"); body.string(friend.firstName)
            body.key("lastName"); body.string(friend.lastName)
            body.key("phone"); body.string(friend.phone)
        }
    }

    // MARK: Reading

    package static func question(_ json: JSON) throws(Problem) -> BackendQuestion {
        let call = try string(json, "call")
        switch call {
        case "availability": return .availability(username: try string(json, "username"))
        case "register": return .registration(username: try string(json, "username"), password: try string(json, "password"))
        case "logIn": return .login(username: try string(json, "username"), password: try string(json, "password"))
        case "addFriend": return .addFriend(try friend(json["friend"]))
        case "updateFriend": return .updateFriend(id: try string(json, "id"), try friend(json["friend"]))
        case "check":
            return .check(name: try string(json, "check"), inputs: try strings(json["inputs"], "inputs"))
        case "submit":
            return .submission(kind: try string(json, "kind"), fields: try strings(json["fields"], "fields"))
        default: throw Problem(description: "unknown call '\(call)' (availability, register, logIn, addFriend, updateFriend, check, submit)")
        }
    }

    /// An object of strings, such as a check's inputs.
    private static func strings(_ json: JSON?, _ key: String) throws(Problem) -> [String: String] {
        guard case .object(let members)? = json else { throw Problem(description: "needs the object \(key)") }
        var strings: [String: String] = [:]
        for member in members {
            guard case .string(let text) = member.value else { throw Problem(description: "\(key) \(member.key) must be a string") }
            strings[member.key] = text
        }
        return strings
    }

    package static func answer(_ json: JSON) throws(Problem) -> BackendAnswer {
        if case .string(let text)? = json["availability"] {
            guard let availability = Availability(rawValue: text) else { throw Problem(description: "availability '\(text)' is not available or taken") }
            return .availability(availability)
        }
        if case .string(let text)? = json["registration"] {
            switch text {
            case "registered": return .registration(.registered(account: value(json["account"] ?? .object([]))))
            case "usernameTaken": return .registration(.usernameTaken)
            case "fieldTaken": return .registration(.fieldTaken(field: try string(json, "field")))
            case "refused":
                let details: [String: JSONValue] = if case .object(let members) = value(json["details"] ?? .null) { members } else { [:] }
                return .registration(.refused(reason: try string(json, "reason"), details: details))
            default: throw Problem(description: "registration '\(text)' is not registered, usernameTaken, fieldTaken or refused")
            }
        }
        if case .string(let text)? = json["login"] {
            switch text {
            case "loggedIn": return .login(.loggedIn(token: try string(json, "token")))
            case "wrongCredentials": return .login(.wrongCredentials)
            case "rateLimited": return .login(.rateLimited)
            default: throw Problem(description: "login '\(text)' is not loggedIn, wrongCredentials or rateLimited")
            }
        }
        if case .string(let text)? = json["friend"] {
            switch text {
            case "saved": return .friend(.saved(id: try string(json, "id")))
            case "notFound": return .friend(.notFound)
            case "unauthorised": return .friend(.unauthorised)
            case "conflict": return .friend(.conflict)
            default: throw Problem(description: "friend '\(text)' is not saved, notFound, unauthorised or conflict")
            }
        }
        if case .string(let text)? = json["verdict"] {
            switch text {
            case "passed": return .verdict(.passed)
            case "rejected":
                guard json["code"] != nil || json["message"] != nil else {
                    guard case .object(let members) = value(json["params"] ?? .null) else { return .verdict(.rejected(nil)) }
                    return .verdict(.rejectedWith(params: members))
                }
                let params: [String: JSONValue] = if case .object(let members) = value(json["params"] ?? .null) { members } else { [:] }
                return .verdict(.rejected(ReportedIssue(
                    field: nil, code: try string(json, "code"), message: try string(json, "message"), params: params)))
            default: throw Problem(description: "verdict '\(text)' is not passed or rejected")
            }
        }
        if case .string(let text)? = json["submission"] {
            switch text {
            case "accepted": return .submission(.accepted(value(json["result"] ?? .object([]))))
            case "refused":
                guard let status = json["status"]?.int64, (400..<500).contains(status) else {
                    throw Problem(description: "a refused submission needs a status from 400 to 499")
                }
                return .submission(.refused(status: Int(status), body: json["body"].map(value)))
            default: throw Problem(description: "submission '\(text)' is not accepted or refused")
            }
        }
        if case .string(let text)? = json["error"] {
            switch text {
            case "unavailable": return .failure(.unavailable(reason: try string(json, "reason")))
            case "timedOut": return .failure(.timedOut)
            case "checkBudgetExceeded":
                guard let seconds = json["retryAfter"]?.int64, (1...Int64(Int32.max)).contains(seconds) else {
                    throw Problem(description: "checkBudgetExceeded needs retryAfter, whole seconds from 1")
                }
                return .failure(.checkBudgetExceeded(CheckBudget.Exceeded(retryAfter: .seconds(seconds))))
            default: throw Problem(description: "error '\(text)' is not unavailable, timedOut or checkBudgetExceeded")
            }
        }
        throw Problem(description: "an answer needs availability, registration, login, friend, verdict, submission or error")
    }

    private static func string(_ json: JSON, _ key: String) throws(Problem) -> String {
        guard case .string(let text)? = json[key] else { throw Problem(description: "needs the string \(key)") }
        return text
    }

    private static func friend(_ json: JSON?) throws(Problem) -> Friend {
        guard let json else { throw Problem(description: "needs the object friend") }
        return Friend(firstName: try string(json, "firstName"), lastName: try string(json, "lastName"), phone: try string(json, "phone"))
    }

    /// A wire value as a core value: whole numbers that fit stay whole.
    package static func value(_ json: JSON) -> JSONValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let text): return Int64(text).map(JSONValue.int) ?? .double(Double(text) ?? 0)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(value))
        case .object(let members): return .object(Dictionary(members.map { ($0.key, value($0.value)) }, uniquingKeysWith: { $1 }))
        }
    }
}
