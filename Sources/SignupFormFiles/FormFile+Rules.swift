import Foundation
import SignupCore
import SignupProtocol

/// A form file's rules: each one check with the code and message of its failure (protocol.md §13).
extension FormFile.Reader {
    /// A rule is one check member (`checkNames`) with the `code` and `message` of its failure.
    func rule(_ json: JSON, _ path: String) throws(FormFile.Problem) -> Rule {
        let object = try members(json, path, allowed: Self.checkNames.union(["code", "message", "requirement"]), required: ["code", "message"])
        let checks = object.keys.filter(Self.checkNames.contains)
        guard checks.count == 1, let name = checks.first else {
            throw fail(path, "needs exactly one check (\(Self.checkNames.sorted().joined(separator: ", ")))")
        }
        guard case .string(let text)? = object["message"] else { throw fail("\(path).message", "must be a string") }
        let failure = Message(try string(object["code"], "\(path).code"), text)
        let requirement = try object["requirement"].map { json throws(FormFile.Problem) in
            Message(failure.code + ".requirement", try string(json, "\(path).requirement"))
        }
        return Rule(try check(name, object[name]!, "\(path).\(name)"), failure: failure, requirement: requirement)
    }

    static let checkNames: Set<String> = [
        "minLength", "maxLength", "characters", "pattern", "notOneOf", "equalsField", "email", "anyOf", "minCodePoints",
        "maxCodePoints", "notCommonPassword", "notRepetitiveOrSequential", "notDictionaryWord", "notSimilarTo", "scriptRestriction",
    ]

    package func check(_ name: String, _ value: JSON, _ path: String) throws(FormFile.Problem) -> Rule.Check {
        switch name {
        case "minLength": return .minLength(try count(value, path))
        case "maxLength": return .maxLength(try count(value, path))
        case "characters":
            switch value {
            case .string("alphanumerics"): return .allowedCharacters(.alphanumerics)
            case .string("asciiAlphanumerics"): return .allowedCharacters(.asciiAlphanumerics)
            case .string("asciiDigits"): return .allowedCharacters(.asciiDigits)
            case .string("precisIdentifier"): return .allowedCharacters(.precisIdentifier)
            case .object:
                let object = try members(value, path, allowed: ["only"], required: ["only"])
                return .allowedCharacters(.characters(try string(object["only"], "\(path).only")))
            default:
                throw fail(path, "must be \"alphanumerics\", \"asciiAlphanumerics\", \"asciiDigits\", \"precisIdentifier\" or {\"only\": \"…\"}")
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
            try requireTrue(value, path)
            return .emailAddress
        case "minCodePoints": return .minCodePoints(try count(value, path))
        case "maxCodePoints": return .maxCodePoints(try count(value, path))
        case "notCommonPassword": return .notCommonPassword(try passwordList(value, path))
        case "notRepetitiveOrSequential":
            try requireTrue(value, path)
            return .notRepetitiveOrSequential
        case "notDictionaryWord":
            try requireTrue(value, path)
            return .notDictionaryWord
        case "notSimilarTo": return .notSimilarTo(try string(value, path))
        case "scriptRestriction":
            guard case .string(let text) = value, let level = ScriptRestriction(rawValue: text) else {
                throw fail(path, "must be one of " + ScriptRestriction.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            return .scriptRestriction(level)
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

    private func requireTrue(_ value: JSON, _ path: String) throws(FormFile.Problem) {
        guard case .bool(true) = value else { throw fail(path, "must be true") }
    }

    /// `true` for the common list (`PasswordList.common`), `{"file": PATH}`, a path
    /// relative to the form file's folder, which must be readable now, or `{"passwords": […]}`,
    /// the list itself (as a recording keeps a file's).
    private func passwordList(_ value: JSON, _ path: String) throws(FormFile.Problem) -> PasswordList {
        if case .bool(true) = value { return PasswordList.common }
        if case .array(let list)? = value["passwords"] {
            _ = try members(value, path, allowed: ["passwords"], required: ["passwords"])
            var passwords: [String] = []
            for (index, item) in list.enumerated() { passwords.append(try string(item, "\(path).passwords[\(index)]")) }
            return PasswordList(source: "\(file) \(path)", passwords: passwords)
        }
        let object = try members(value, path, allowed: ["file"], required: ["file"])
        let named = try string(object["file"], "\(path).file")
        let resolved = named.hasPrefix("/") ? named : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(named)
        do {
            return try PasswordList(path: resolved)
        } catch {
            throw fail("\(path).file", "cannot read the password list \(resolved)")
        }
    }
}
