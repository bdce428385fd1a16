import SignupCore

/// Reads a scripted directory from JSON:
/// `{"taken": [..], "free": [..], "failing": [..], "defaultVerdict": "available",
///   "checkLatencyMs": 200 or {"min": 50, "max": 400}, "registrationLatencyMs": 1000,
///   "refusedRegistrations": [..], "registrationFailureRate": 0.2, "seed": 7}` — every member optional.
enum DirectoryFile {
    /// Why a directory file was refused: the JSON path of the offending member and what is wrong.
    struct Problem: Error, Equatable, CustomStringConvertible {
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
            default:
                throw Problem(path: path, reason: "is not a directory setting (taken, free, failing, defaultVerdict, checkLatencyMs, registrationLatencyMs, refusedRegistrations, registrationFailureRate, seed)")
            }
        }
        return script
    }

    private static func names(_ value: JSON, _ path: String) throws(Problem) -> Set<String> {
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

    private static func latency(_ value: JSON, _ path: String) throws(Problem) -> Latency {
        if let milliseconds = value.int64, milliseconds >= 0 { return .fixed(.milliseconds(milliseconds)) }
        guard case .object = value, let low = value["min"]?.int64, let high = value["max"]?.int64,
              low >= 0, high >= low else {
            throw Problem(path: path, reason: "must be milliseconds (a whole number of 0 or more) or {\"min\": N, \"max\": M} with min ≤ max")
        }
        return .uniform(low...high)
    }
}
