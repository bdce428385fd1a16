import SignupBackends
import SignupCore
import SignupProtocol

/// A directory file's `submissions`: how each form kind's `http` submissions answer.
/// `{"invite-signup": {"cases": [{"when": {"email": "taken@example.com"}, "status": 422, "body": {…}},
/// {"when": {"username": "down"}, "error": "unavailable"}], "status": 201, "body": {"id": 7}, "latencyMs": 300}}`:
/// the first case whose fields all hold the values it names answers, else the kind's own `status`
/// (201 by default) and `body` (`{}`); a 2xx status accepts, a 4xx refuses, any other is unavailable.
extension DirectoryFile {
    static func submissions(_ value: JSON, _ path: String) throws(Problem) -> [String: ScriptedDirectory.Script.SubmissionScript] {
        guard case .object(let kinds) = value else { throw Problem(path: path, reason: "must be an object of form kinds") }
        var scripts: [String: ScriptedDirectory.Script.SubmissionScript] = [:]
        for kind in kinds {
            let at = "\(path).\(kind.key)"
            guard case .object(let settings) = kind.value else { throw Problem(path: at, reason: "must be an object") }
            var script = ScriptedDirectory.Script.SubmissionScript()
            script.otherwise = try answer(kind.value, at, allowing: ["cases", "latencyMs"])
            for setting in settings {
                switch setting.key {
                case "latencyMs": script.latency = try latency(setting.value, "\(at).latencyMs")
                case "cases":
                    guard case .array(let items) = setting.value else { throw Problem(path: "\(at).cases", reason: "must be an array of cases") }
                    for (index, item) in items.enumerated() {
                        let place = "\(at).cases[\(index)]"
                        guard case .object(let conditions)? = item["when"] else {
                            throw Problem(path: "\(place).when", reason: "must be an object of field values")
                        }
                        var when: [String: String] = [:]
                        for condition in conditions {
                            guard case .string(let text) = condition.value else {
                                throw Problem(path: "\(place).when.\(condition.key)", reason: "must be a string")
                            }
                            when[condition.key] = text
                        }
                        script.cases.append(.init(when: when, answer: try answer(item, place, allowing: ["when"])))
                    }
                default: break
                }
            }
            scripts[kind.key] = script
        }
        return scripts
    }

    /// `{"status": …, "body": …}` or `{"error": "unavailable" | "timedOut"}`, with the other members `allowing` names.
    private static func answer(_ json: JSON, _ path: String, allowing others: Set<String>) throws(Problem) -> BackendAnswer {
        guard case .object(let members) = json else { throw Problem(path: path, reason: "must be an object") }
        let allowed = others.union(["status", "body", "error"])
        if let extra = members.first(where: { !allowed.contains($0.key) }) {
            throw Problem(path: "\(path).\(extra.key)", reason: "is not allowed here (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        if let error = json["error"] {
            guard json["status"] == nil, json["body"] == nil else { throw Problem(path: "\(path).error", reason: "cannot be given with status or body") }
            switch error {
            case .string("unavailable"): return .failure(.unavailable(reason: "scripted server error"))
            case .string("timedOut"): return .failure(.timedOut)
            default: throw Problem(path: "\(path).error", reason: "must be \"unavailable\" or \"timedOut\"")
            }
        }
        var status = 201
        if let value = json["status"] {
            guard let number = value.int64, (100...599).contains(number) else {
                throw Problem(path: "\(path).status", reason: "must be an HTTP status, 100 to 599")
            }
            status = Int(number)
        }
        let body = json["body"].map(BackendExchangeJSON.value)
        switch status {
        case 200..<300: return .submission(.accepted(body ?? .object([:])))
        case 400..<500: return .submission(.refused(status: status, body: body))
        default: return .failure(.unavailable(reason: "HTTP status \(status)"))
        }
    }
}
