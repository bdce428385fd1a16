import SignupCore

/// Where a form file's coherence errors point (protocol.md §13): a reference to a field the form
/// lacks at the member that names it, a bad check at its check, inside `anyOf` too.
extension FormDefinitionError {
    /// Where in the file of a form with these fields and submit action the error points: the
    /// member that says what is wrong.
    package func path(in fields: [FieldDefinition], submit: SubmitAction) -> String {
        func fieldPath(_ name: String) -> String {
            fields.firstIndex { $0.name == name }.map { "$.fields[\($0)]" } ?? "$.fields"
        }
        /// The member of the first check of `field`'s rules that `member` picks out.
        func checkPath(in field: String, _ member: (Rule.Check) -> String?) -> String {
            let rules = fields.first { $0.name == field }?.rules ?? []
            return Self.path(ofCheckIn: rules, at: fieldPath(field) + ".rules", member) ?? fieldPath(field) + ".rules"
        }
        /// The last check of `field` named `check` (a duplicate is the later one).
        func remoteCheckPath(in field: String, _ check: String) -> String {
            let checks = fields.first { $0.name == field }?.remoteChecks ?? []
            return checks.lastIndex { $0.name == check }.map { fieldPath(field) + ".remoteChecks[\($0)]" } ?? fieldPath(field)
        }
        switch self {
        case .noFields: return "$.fields"
        case .emptyFieldName: return "$.fields"
        case .duplicateField(_, let field): return fields.lastIndex { $0.name == field }.map { "$.fields[\($0)].name" } ?? "$.fields"
        case .unknownField(_, let target, let referrer) where referrer == "submit":
            return submit.fieldMembers.first { $0.field == target }.map { "$.submit.\($0.member)" } ?? "$.submit"
        case .unknownField(_, let target, let field):
            return checkPath(in: field) { check in
                switch check {
                case .equalsField(target): "equalsField"
                case .notSimilarTo(target): "notSimilarTo"
                default: nil
                }
            }
        case .selfReference(_, let field):
            return checkPath(in: field) { check in
                switch check {
                case .equalsField(field): "equalsField"
                case .notSimilarTo(field): "notSimilarTo"
                default: nil
                }
            }
        case .negativeLength(_, let field, _):
            return checkPath(in: field) { check in
                switch check {
                case .minLength(let bound) where bound < 0: "minLength"
                case .maxLength(let bound) where bound < 0: "maxLength"
                case .minCodePoints(let bound) where bound < 0: "minCodePoints"
                case .maxCodePoints(let bound) where bound < 0: "maxCodePoints"
                default: nil
                }
            }
        case .partialChecklist(_, let field), .tooManyRequirements(_, let field, _):
            return fieldPath(field) + ".rules"
        case .passwordMinimumTooLow(_, let field, _, _):
            return checkPath(in: field) { if case .minCodePoints = $0 { "minCodePoints" } else { nil } }
        case .passwordMaximumTooLow(_, let field, _):
            return checkPath(in: field) { if case .maxCodePoints = $0 { "maxCodePoints" } else { nil } }
        case .invalidPattern(_, let field, let pattern):
            return checkPath(in: field) { if case .pattern(pattern) = $0 { "pattern" } else { nil } }
        case .invalidCheckName(_, let field, let check), .duplicateCheck(_, let field, let check):
            return remoteCheckPath(in: field, check) + ".name"
        case .unknownCheckInput(_, let field, let check, _):
            return remoteCheckPath(in: field, check)
        case .uniqueWithoutRegistration(_, let field), .uniqueSecret(_, let field):
            let checks = fields.first { $0.name == field }?.remoteChecks ?? []
            let place = checks.firstIndex { $0.kind.type.claimsTheValue } ?? 0
            return fieldPath(field) + ".remoteChecks[\(place)].kind"
        }
    }

    /// The path of the first check among `rules` (at `path`), `anyOf` alternatives included,
    /// for which `member` gives a member name, ending in that name.
    private static func path(ofCheckIn rules: [Rule], at path: String, _ member: (Rule.Check) -> String?) -> String? {
        for (index, rule) in rules.enumerated() {
            if let found = self.path(of: rule.check, at: "\(path)[\(index)]", member) { return found }
        }
        return nil
    }

    private static func path(of check: Rule.Check, at path: String, _ member: (Rule.Check) -> String?) -> String? {
        guard case .anyOf(let alternatives) = check else { return member(check).map { "\(path).\($0)" } }
        for (index, alternative) in alternatives.enumerated() {
            for (position, inner) in alternative.enumerated() {
                if let found = self.path(of: inner, at: "\(path).anyOf[\(index)][\(position)]", member) { return found }
            }
        }
        return nil
    }
}

extension SubmitAction {
    /// Each field the action names, with the form file's member that names it.
    fileprivate var fieldMembers: [(member: String, field: String)] {
        switch kind {
        case .registerAccount(let username, let password), .logIn(let username, let password):
            [("usernameField", username), ("passwordField", password)]
        case .saveFriend(let firstName, let lastName, let phone):
            [("firstNameField", firstName), ("lastNameField", lastName), ("phoneField", phone)]
        case .http(let submission):
            submission.placeholders.map { (submission.url.placeholders.contains($0) ? "url" : "body", $0) }
        }
    }
}
