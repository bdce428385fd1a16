import Foundation
import SignupCore

/// A form file's rules: each one check with the code and message of its failure (protocol.md §13).
extension FormFile.Reader {
    /// A rule is one check member (`minLength`, `maxLength`, `characters`, `pattern`,
    /// `notOneOf`, `equalsField`, `email` or `anyOf`) with the `code` and `message` of its failure.
    func rule(_ json: JSON, _ path: String) throws(FormFile.Problem) -> Rule {
        let object = try members(json, path, allowed: Self.checkNames.union(["code", "message"]), required: ["code", "message"])
        let checks = object.keys.filter(Self.checkNames.contains)
        guard checks.count == 1, let name = checks.first else {
            throw fail(path, "needs exactly one check (\(Self.checkNames.sorted().joined(separator: ", ")))")
        }
        guard case .string(let text)? = object["message"] else { throw fail("\(path).message", "must be a string") }
        let failure = Message(try string(object["code"], "\(path).code"), text)
        return Rule(try check(name, object[name]!, "\(path).\(name)"), failure: failure)
    }

    static let checkNames: Set<String> = ["minLength", "maxLength", "characters", "pattern", "notOneOf", "equalsField", "email", "anyOf"]

    func check(_ name: String, _ value: JSON, _ path: String) throws(FormFile.Problem) -> Rule.Check {
        switch name {
        case "minLength": return .minLength(try count(value, path))
        case "maxLength": return .maxLength(try count(value, path))
        case "characters":
            switch value {
            case .string("alphanumerics"): return .allowedCharacters(.alphanumerics)
            case .string("asciiAlphanumerics"): return .allowedCharacters(.asciiAlphanumerics)
            case .string("asciiDigits"): return .allowedCharacters(.asciiDigits)
            case .object:
                let object = try members(value, path, allowed: ["only"], required: ["only"])
                return .allowedCharacters(.characters(try string(object["only"], "\(path).only")))
            default:
                throw fail(path, "must be \"alphanumerics\", \"asciiAlphanumerics\", \"asciiDigits\" or {\"only\": \"…\"}")
            }
        case "pattern":
            let pattern = try string(value, path)
            guard Rule.Check.isValidPattern(pattern) else {
                throw fail(path, "is not a valid regular expression")
            }
            return .pattern(pattern)
        case "notOneOf":
            guard case .array(let list) = value else { throw fail(path, "must be an array of strings") }
            var names: [String] = []
            for (index, element) in list.enumerated() { names.append(try string(element, "\(path)[\(index)]")) }
            return .notOneOf(names)
        case "equalsField":
            return .equalsField(try string(value, path))
        case "email":
            guard case .bool(true) = value else { throw fail(path, "must be true") }
            return .emailAddress
        default:
            guard case .array(let alternatives) = value, !alternatives.isEmpty else {
                throw fail(path, "must be a non-empty array of alternatives, each an array of checks")
            }
            var result: [[Rule.Check]] = []
            for (index, alternative) in alternatives.enumerated() {
                guard case .array(let list) = alternative, !list.isEmpty else {
                    throw fail("\(path)[\(index)]", "must be a non-empty array of checks")
                }
                var checks: [Rule.Check] = []
                for (position, item) in list.enumerated() {
                    let itemPath = "\(path)[\(index)][\(position)]"
                    let object = try members(item, itemPath, allowed: Self.checkNames)
                    guard object.count == 1, let (key, value) = object.first else {
                        throw fail(itemPath, "must hold exactly one check")
                    }
                    checks.append(try check(key, value, "\(itemPath).\(key)"))
                }
                result.append(checks)
            }
            return .anyOf(result)
        }
    }
}
