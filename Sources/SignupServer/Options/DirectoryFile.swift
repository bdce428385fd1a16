import SignupBackends
import SignupCore
import SignupProtocol

/// Reads a scripted directory from JSON:
/// `{"taken": [..], "free": [..], "failing": [..], "defaultVerdict": "available",
///   "checkLatencyMs": 200 or {"min": 50, "max": 400}, "registrationLatencyMs": 1000,
///   "refusedRegistrations": [..], "registrationFailureRate": 0.2, "seed": 7,
///   "accounts": [{"username": "ada", "password": "…"}], "friends": [{"id": "1", "firstName": "…",
///   "lastName": "…", "phone": "…"}], "protectedFriends": ["1"], "failingPhones": [..],
///   "checks": {NAME: …} (`DirectoryFile+Checks.swift`), "submissions": {KIND: …}
///   (`DirectoryFile+Submissions.swift`)}` — every member optional. Account passwords are hashed as the file is read and never kept in clear.
enum DirectoryFile {
    /// Why a directory file was refused: the JSON path of the offending member and what is wrong.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func parse(_ bytes: [UInt8]) throws(Problem) -> ScriptedDirectory.Script {
        let json: JSON
        do throws(JSONParseError) {
            json = try JSONParser.parse(bytes)
        } catch {
            throw Problem(path: "$", reason: "not JSON: \(error.description) at byte \(error.offset)")
        }
        guard case .object(let members) = json else {
            throw Problem(path: "$", reason: "must be an object, not \(json.typeName)")
        }
        var script = ScriptedDirectory.Script()
        for member in members {
            let path = "$.\(member.key)"
            switch member.key {
            case "taken": script.takenNames = try names(member.value, path)
            case "free": script.freeNames = try names(member.value, path)
            case "failing": script.failingNames = try names(member.value, path)
            case "refusedRegistrations": script.refusedRegistrations = try names(member.value, path)
            case "defaultVerdict":
                guard case .string(let text) = member.value, let verdict = ScriptedDirectory.Script.Verdict(rawValue: text) else {
                    throw Problem(path: path, reason: "must be \"available\", \"taken\" or \"unavailable\"")
                }
                script.defaultVerdict = verdict
            case "checkLatencyMs": script.checkLatency = try latency(member.value, path)
            case "registrationLatencyMs": script.registrationLatency = try latency(member.value, path)
            case "registrationFailureRate":
                guard case .number(let text) = member.value, let rate = Double(text), rate >= 0, rate <= 1 else {
                    throw Problem(path: path, reason: "must be a number from 0 to 1")
                }
                script.registrationFailureRate = rate
            case "seed":
                guard case .number(let text) = member.value, let seed = UInt64(text) else {
                    throw Problem(path: path, reason: "must be a whole number from 0 to 18446744073709551615")
                }
                script.seed = seed
            case "accounts": script.accounts = try accounts(member.value, path)
            case "friends": script.friends = try friends(member.value, path)
            case "protectedFriends": script.protectedFriends = try names(member.value, path)
            case "failingPhones": script.failingPhones = try names(member.value, path)
            case "replies": script.replies = try replies(member.value, path)
            case "checks": script.checks = try checks(member.value, path)
            case "submissions": script.submissions = try submissions(member.value, path)
            default:
                throw Problem(path: path, reason: "is not a directory setting (taken, free, failing, defaultVerdict, checkLatencyMs, registrationLatencyMs, refusedRegistrations, registrationFailureRate, seed, accounts, friends, protectedFriends, failingPhones, replies, checks, submissions)")
            }
        }
        return script
    }

    /// `[{"ask": {"call": …, …}, "at": 500, "answer": {…}}]`: recorded answers (`signup-rpc replay
    /// --write-fixture` writes them); without `answer`, the question is never answered.
    private static func replies(_ value: JSON, _ path: String) throws(Problem) -> [ScriptedDirectory.Script.Reply] {
        guard case .array(let elements) = value else { throw Problem(path: path, reason: "must be an array of replies") }
        var replies: [ScriptedDirectory.Script.Reply] = []
        for (index, element) in elements.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let ask = element["ask"] else { throw Problem(path: itemPath, reason: "needs ask, the question") }
            let question: BackendQuestion
            var answer: BackendAnswer?
            do throws(BackendExchangeJSON.Problem) {
                question = try BackendExchangeJSON.question(ask)
                if let json = element["answer"] { answer = try BackendExchangeJSON.answer(json) }
            } catch {
                throw Problem(path: itemPath, reason: error.description)
            }
            let time = element["at"]?.int64 ?? 0
            guard answer == nil || time >= 0, answer == nil || element["at"]?.int64 != nil else {
                throw Problem(path: "\(itemPath).at", reason: "must be a whole number of milliseconds, from 0")
            }
            replies.append(.init(question: question, time: time, answer: answer))
        }
        return replies
    }

    /// `[{"username": …, "password": …}]`, or `"passwordHash"` (yescrypt) instead of the password.
    private static func accounts(_ value: JSON, _ path: String) throws(Problem) -> [String: String] {
        var hashes: [String: String] = [:]
        for (index, element) in try records(value, path, allowed: ["username", "password", "passwordHash"]).enumerated() {
            let at = "\(path)[\(index)]"
            guard let username = element["username"], !username.isEmpty else {
                throw Problem(path: "\(at).username", reason: "is required: a non-empty string")
            }
            switch (element["password"], element["passwordHash"]) {
            case (let password?, nil):
                do throws(PasswordHasher.Failure) {
                    hashes[username] = try PasswordHasher.hash(password)
                } catch {
                    throw Problem(path: "\(at).password", reason: error.description)
                }
            case (nil, let hash?) where hash.hasPrefix("$"):
                hashes[username] = hash
            case (nil, _?):
                throw Problem(path: "\(at).passwordHash", reason: "must be a crypt hash such as \"$y$…\"")
            default:
                throw Problem(path: at, reason: "needs exactly one of \"password\" and \"passwordHash\"")
            }
        }
        return hashes
    }

    /// `[{"id": …, "firstName": …, "lastName": …, "phone": …}]`, every member a string.
    private static func friends(_ value: JSON, _ path: String) throws(Problem) -> [String: Friend] {
        var friends: [String: Friend] = [:]
        let members = ["id", "firstName", "lastName", "phone"]
        for (index, element) in try records(value, path, allowed: Set(members)).enumerated() {
            for member in members where element[member] == nil {
                throw Problem(path: "\(path)[\(index)].\(member)", reason: "is required: a string")
            }
            let id = element["id"]!
            guard friends[id] == nil else { throw Problem(path: "\(path)[\(index)].id", reason: "repeats the id '\(id)'") }
            friends[id] = Friend(firstName: element["firstName"]!, lastName: element["lastName"]!, phone: element["phone"]!)
        }
        return friends
    }

    /// An array of objects whose members are strings with the allowed names.
    private static func records(_ value: JSON, _ path: String, allowed: Set<String>) throws(Problem) -> [[String: String]] {
        guard case .array(let elements) = value else { throw Problem(path: path, reason: "must be an array of objects") }
        var result: [[String: String]] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let members) = element else {
                throw Problem(path: "\(path)[\(index)]", reason: "must be an object, not \(element.typeName)")
            }
            var record: [String: String] = [:]
            for member in members {
                let at = "\(path)[\(index)].\(member.key)"
                guard allowed.contains(member.key) else {
                    throw Problem(path: at, reason: "is not allowed here (allowed: \(allowed.sorted().joined(separator: ", ")))")
                }
                guard case .string(let text) = member.value else { throw Problem(path: at, reason: "must be a string, not \(member.value.typeName)") }
                record[member.key] = text
            }
            result.append(record)
        }
        return result
    }

    static func names(_ value: JSON, _ path: String) throws(Problem) -> Set<String> {
        guard case .array(let elements) = value else { throw Problem(path: path, reason: "must be an array of strings") }
        var names = Set<String>()
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element else {
                throw Problem(path: "\(path)[\(index)]", reason: "must be a string, not \(element.typeName)")
            }
            names.insert(name)
        }
        return names
    }

    static func latency(_ value: JSON, _ path: String) throws(Problem) -> Latency {
        if let milliseconds = value.int64, milliseconds >= 0 { return .fixed(.milliseconds(milliseconds)) }
        guard case .object = value, let low = value["min"]?.int64, let high = value["max"]?.int64,
              low >= 0, high >= low else {
            throw Problem(path: path, reason: "must be milliseconds (a whole number of 0 or more) or {\"min\": N, \"max\": M} with min ≤ max")
        }
        return .uniform(low...high)
    }
}
