import Foundation
import SignupCore
import SignupProtocol

/// Reads form definitions from JSON files (format: protocol.md §13, schema: forms.schema.json).
/// Every member is checked; an unknown or mistyped one is refused with its JSON path.
package enum FormFile {
    /// Why a definition was refused: the file, the JSON path of the offending member, and why.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        package var file: String
        package var path: String
        package var reason: String
        package var description: String { "\(file): \(path): \(reason)" }
    }

    /// Loads every `*.json` file in a folder, in name order.
    package static func loadFolder(_ folder: String, builtInKinds: [String]) throws(Problem) -> [FormDefinition] {
        try loadFolderWithDocuments(folder, builtInKinds: builtInKinds).map(\.definition)
    }

    /// As `loadFolder`, with each kind's document as read (for a recording's header), made
    /// self-contained (`selfContained`).
    package static func loadFolderWithDocuments(_ folder: String, builtInKinds: [String]) throws(Problem) -> [(definition: FormDefinition, document: JSON)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw Problem(file: folder, path: "$", reason: "is not a readable folder")
        }
        var definitions: [(definition: FormDefinition, document: JSON)] = []
        var kinds = Set(builtInKinds)
        for name in names.filter({ $0.hasSuffix(".json") }).sorted() {
            let file = (folder as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw Problem(file: file, path: "$", reason: "cannot be read")
            }
            let definition = try parse(Array(data), file: file)
            guard kinds.insert(definition.kind).inserted else {
                throw Problem(file: file, path: "$.kind", reason: "the kind '\(definition.kind)' is already defined")
            }
            let document = (try? JSONParser.parse(Array(data))) ?? .null
            definitions.append((definition, selfContained(document, definition)))
        }
        return definitions
    }

    package static func parse(_ bytes: [UInt8], file: String) throws(Problem) -> FormDefinition {
        let json: JSON
        do throws(JSONParseError) {
            json = try JSONParser.parse(bytes)
        } catch {
            throw Problem(file: file, path: "$", reason: "not JSON: \(error.description) at byte \(error.offset)")
        }
        return try parse(json, file: file)
    }

    /// A definition already read as JSON (such as one a recording's header carries): a form file,
    /// or a JSON Schema (one that names its `$schema`, read by `SchemaForm`).
    package static func parse(_ json: JSON, file: String) throws(Problem) -> FormDefinition {
        if SchemaForm.isSchema(json) || SchemaForm.isOpenAPI(json) { return try SchemaForm.parse(json, file: file) }
        return try Reader(file: file).form(json)
    }

    /// Walks a definition, keeping the file name for errors (its rules: `FormFile+Rules.swift`).
    package struct Reader {
        package let file: String

        package func fail(_ path: String, _ reason: String) -> Problem { Problem(file: file, path: path, reason: reason) }

        package func members(_ json: JSON, _ path: String, allowed: Set<String>, required: Set<String> = []) throws(Problem) -> [String: JSON] {
            guard case .object(let list) = json else { throw fail(path, "must be an object, not \(json.typeName)") }
            var result: [String: JSON] = [:]
            for member in list {
                guard allowed.contains(member.key) else {
                    throw fail("\(path).\(member.key)", "is not allowed here (allowed: \(allowed.sorted().joined(separator: ", ")))")
                }
                guard result.updateValue(member.value, forKey: member.key) == nil else {
                    throw fail("\(path).\(member.key)", "appears more than once")
                }
            }
            for name in required.sorted() where result[name] == nil {
                throw fail("\(path).\(name)", "is required")
            }
            return result
        }

        package func string(_ json: JSON?, _ path: String) throws(Problem) -> String {
            guard case .string(let text)? = json, !text.isEmpty else {
                throw fail(path, "must be a non-empty string")
            }
            return text
        }

        package func count(_ json: JSON?, _ path: String) throws(Problem) -> Int {
            guard let number = json?.int64, number >= 0, number <= Int64(Int32.max) else {
                throw fail(path, "must be a whole number of 0 or more")
            }
            return Int(number)
        }

        package func bool(_ json: JSON?, _ path: String, default value: Bool) throws(Problem) -> Bool {
            guard let json else { return value }
            guard case .bool(let flag) = json else { throw fail(path, "must be true or false") }
            return flag
        }

        package func message(_ json: JSON?, _ path: String) throws(Problem) -> Message {
            let object = try members(json ?? .null, path, allowed: ["code", "message"], required: ["code", "message"])
            guard case .string(let text)? = object["message"] else { throw fail("\(path).message", "must be a string") }
            return Message(try string(object["code"], "\(path).code"), text)
        }

        package func form(_ json: JSON) throws(Problem) -> FormDefinition {
            let object = try members(json, "$", allowed: ["kind", "title", "fields", "submit", "translations", "secondFactor"],
                                     required: ["kind", "fields", "submit"])
            let kind = try string(object["kind"], "$.kind")
            let title = try object["title"].map { json throws(Problem) in Message("title", try string(json, "$.title")) }
            guard case .array(let fieldList)? = object["fields"], !fieldList.isEmpty else {
                throw fail("$.fields", "must be a non-empty array of fields")
            }
            var fields: [FieldDefinition] = []
            for (index, field) in fieldList.enumerated() {
                fields.append(try self.field(field, "$.fields[\(index)]"))
            }
            let submit = try self.submit(object["submit"]!, "$.submit")
            let translations = try self.translations(object["translations"], "$.translations")
            let hasSecondFactor = try bool(object["secondFactor"], "$.secondFactor", default: false)
            do throws(FormDefinitionError) {
                return try FormDefinition(
                    kind: kind, title: title, fields: fields, submit: submit, translations: translations, hasSecondFactor: hasSecondFactor)
            } catch {
                var path = error.path(in: fields, submit: submit)
                // A field that declared its one check as `remoteCheck` is pointed at there.
                for (index, field) in fieldList.enumerated() where field["remoteCheck"] != nil {
                    let listed = "$.fields[\(index)].remoteChecks[0]"
                    if path.hasPrefix(listed) { path = "$.fields[\(index)].remoteCheck" + path.dropFirst(listed.count) }
                }
                throw fail(path, error.description)
            }
        }

        package func field(_ json: JSON, _ path: String) throws(Problem) -> FieldDefinition {
            let object = try members(json, path, allowed: [
                "name", "label", "placeholder", "input", "required", "secret", "normalization", "rules", "remoteCheck",
                "remoteChecks", "empty", "success",
            ], required: ["name"])
            let name = try string(object["name"], "\(path).name")
            let isSecret = try bool(object["secret"], "\(path).secret", default: false)
            var input: InputKind?
            if let value = object["input"] {
                guard case .string(let text) = value, let kind = InputKind(rawValue: text) else {
                    let kinds = InputKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw fail("\(path).input", "must be one of \(kinds)")
                }
                // A password typed into a field that is not secret would be echoed in traces.
                guard !kind.isSecret || isSecret else {
                    throw fail("\(path).input", "is a password, so the field must be \"secret\": true")
                }
                input = kind
            }
            var rules: [Rule] = []
            if let ruleList = object["rules"] {
                guard case .array(let list) = ruleList else { throw fail("\(path).rules", "must be an array of rules") }
                for (index, rule) in list.enumerated() { rules.append(try self.rule(rule, "\(path).rules[\(index)]")) }
            }
            var normalization = FieldDefinition.Normalization.none
            if let value = object["normalization"] {
                guard case .string(let text) = value, let parsed = FieldDefinition.Normalization(rawValue: text) else {
                    throw fail("\(path).normalization", "must be \"none\", \"nfkc\" or \"usernameCaseMapped\"")
                }
                normalization = parsed
            }
            return FieldDefinition(
                name: name,
                isRequired: try bool(object["required"], "\(path).required", default: true),
                rules: rules,
                remoteChecks: try remoteChecks(one: object["remoteCheck"], list: object["remoteChecks"], path),
                emptyMessage: try object["empty"].map { json throws(Problem) in try message(json, "\(path).empty") },
                successMessage: try object["success"].map { json throws(Problem) in try message(json, "\(path).success") },
                isSecret: isSecret,
                normalization: normalization,
                label: try object["label"].map { json throws(Problem) in Message("\(name).label", try string(json, "\(path).label")) },
                placeholder: try object["placeholder"].map { json throws(Problem) in
                    Message("\(name).placeholder", try string(json, "\(path).placeholder"))
                },
                input: input)
        }

        package func submit(_ json: JSON, _ path: String) throws(Problem) -> SubmitAction {
            if case .string("http")? = json["action"] { return try httpSubmit(json, path) }
            let actions = ["registerAccount": ["usernameField", "passwordField"], "logIn": ["usernameField", "passwordField"],
                           "saveFriend": ["firstNameField", "lastNameField", "phoneField"]]
            guard case .string(let action)? = json["action"], let fieldMembers = actions[action] else {
                _ = try members(
                    json, path, allowed: Set(actions.values.joined()).union(["action", "messages", "label", "states"]), required: ["action"])
                throw fail("\(path).action", "must be \"registerAccount\", \"logIn\", \"saveFriend\" or \"http\"")
            }
            let names = Set(fieldMembers)
            let object = try members(
                json, path, allowed: names.union(["action", "messages", "label", "states"]), required: names.union(["action", "messages"]))
            var fields: [String] = []
            for member in fieldMembers { fields.append(try string(object[member], "\(path).\(member)")) }
            let kind: SubmitAction.Kind = switch action {
            case "logIn": .logIn(usernameField: fields[0], passwordField: fields[1])
            case "saveFriend": .saveFriend(firstNameField: fields[0], lastNameField: fields[1], phoneField: fields[2])
            default: .registerAccount(usernameField: fields[0], passwordField: fields[1])
            }
            return SubmitAction(
                kind: kind, messages: try failureMessages(of: kind, object["messages"]!, path),
                stateNames: action == "logIn" ? .login : .standard,
                texts: try submitTexts(label: object["label"], states: object["states"], path, default: .standard(for: kind)))
        }

        /// `messages`: exactly one message for each way the kind of action can fail.
        func failureMessages(of kind: SubmitAction.Kind, _ json: JSON, _ path: String) throws(Problem) -> [SubmitAction.Failure: Message] {
            let failures = SubmitAction(kind: kind).possibleFailures.map(\.rawValue)
            let texts = try members(json, "\(path).messages", allowed: Set(failures), required: Set(failures))
            var messages: [SubmitAction.Failure: Message] = [:]
            for failure in failures {
                messages[SubmitAction.Failure(rawValue: failure)!] = try message(texts[failure], "\(path).messages.\(failure)")
            }
            return messages
        }

        /// The button's `label` and the texts of `states` by meaning (`idle`, `submitting`,
        /// `succeeded`, `failed`), with codes `submit.label` and `submit.<meaning>` for translations;
        /// what is left out keeps the action's built-in text.
        func submitTexts(label: JSON?, states: JSON?, _ path: String, default standard: SubmitAction.Texts) throws(Problem) -> SubmitAction.Texts {
            var texts = standard
            if let label { texts.label = Message("submit.label", try string(label, "\(path).label")) }
            guard let states else { return texts }
            let meanings = ["idle", "submitting", "succeeded", "failed"]
            let given = try members(states, "\(path).states", allowed: Set(meanings))
            func text(_ meaning: String) throws(Problem) -> Message? {
                try given[meaning].map { json throws(Problem) in Message("submit.\(meaning)", try string(json, "\(path).states.\(meaning)")) }
            }
            texts.idle = try text("idle") ?? texts.idle
            texts.submitting = try text("submitting") ?? texts.submitting
            texts.succeeded = try text("succeeded") ?? texts.succeeded
            texts.failed = try text("failed") ?? texts.failed
            return texts
        }

        func translations(_ json: JSON?, _ path: String) throws(Problem) -> [String: [String: String]] {
            guard let json else { return [:] }
            guard case .object(let locales) = json else { throw fail(path, "must be an object of locales") }
            var result: [String: [String: String]] = [:]
            for locale in locales {
                guard case .object(let codes) = locale.value else {
                    throw fail("\(path).\(locale.key)", "must be an object of message codes")
                }
                var texts: [String: String] = [:]
                for code in codes {
                    guard case .string(let text) = code.value else {
                        throw fail("\(path).\(locale.key).\(code.key)", "must be a string")
                    }
                    texts[code.key] = text
                }
                result[locale.key] = texts
            }
            return result
        }
    }
}
