import SignupBackends
import SignupCore
import SignupProtocol

/// A directory file's `checks`: how each named remote check answers, by the value it is asked about.
/// `{"inviteCode": {"rejected": ["X1"], "failing": ["X2"], "answers": {"OLD": {"code": "invite.expired",
/// "message": "…", "params": {…}}}, "latencyMs": 200}}`, every member optional; a value no member
/// names passes.
extension DirectoryFile {
    static func checks(_ value: JSON, _ path: String) throws(Problem) -> [String: ScriptedDirectory.Script.CheckScript] {
        guard case .object(let members) = value else { throw Problem(path: path, reason: "must be an object of check names") }
        var checks: [String: ScriptedDirectory.Script.CheckScript] = [:]
        for member in members {
            let at = "\(path).\(member.key)"
            guard RemoteCheck.isValidName(member.key) else {
                throw Problem(path: at, reason: "is not a check name (1 to 64 letters, digits, '_', '.' or '-')")
            }
            guard case .object(let settings) = member.value else { throw Problem(path: at, reason: "must be an object") }
            var check = ScriptedDirectory.Script.CheckScript()
            for setting in settings {
                let place = "\(at).\(setting.key)"
                switch setting.key {
                case "rejected": check.rejected = try names(setting.value, place)
                case "failing": check.failing = try names(setting.value, place)
                case "latencyMs": check.latency = try latency(setting.value, place)
                case "answers": check.answers = try answers(setting.value, place)
                default: throw Problem(path: place, reason: "is not a check setting (rejected, failing, answers, latencyMs)")
                }
            }
            checks[member.key] = check
        }
        return checks
    }

    /// Values rejected with the backend's own words: `{"VALUE": {"code", "message", "params"?}}`.
    private static func answers(_ value: JSON, _ path: String) throws(Problem) -> [String: ReportedIssue] {
        guard case .object(let members) = value else { throw Problem(path: path, reason: "must be an object of values") }
        var answers: [String: ReportedIssue] = [:]
        for member in members {
            let at = "\(path).\(member.key)"
            guard case .object(let parts) = member.value, case .string(let code)? = member.value["code"], !code.isEmpty,
                  case .string(let message)? = member.value["message"] else {
                throw Problem(path: at, reason: "must be {\"code\": …, \"message\": …, \"params\": {…}}, code and message strings")
            }
            if let extra = parts.first(where: { !["code", "message", "params"].contains($0.key) }) {
                throw Problem(path: "\(at).\(extra.key)", reason: "is not allowed here (allowed: code, message, params)")
            }
            var params: [String: JSONValue] = [:]
            if let given = member.value["params"] {
                guard case .object(let list) = BackendExchangeJSON.value(given) else {
                    throw Problem(path: "\(at).params", reason: "must be an object")
                }
                params = list
            }
            answers[member.key] = ReportedIssue(field: nil, code: code, message: message, params: params)
        }
        return answers
    }
}
