/// A form as data: ordered fields and a submit action. `FormPipeline` turns one into running code,
/// so a new screen is a new definition, not new wiring.
public struct FormDefinition: Hashable, Sendable {
    /// The name clients open it by, such as `signup`.
    public var kind: String
    /// The heading a frontend shows above the form.
    public var title: Message
    public var fields: [FieldDefinition]
    public var submit: SubmitAction
    /// The form's own message texts by locale, then by code; they win over the built-in catalogs.
    public var translations: [String: [String: String]]
    /// Whether the person signs in with a second factor beside the password: NIST SP 800-63B
    /// then allows a password minimum (`minCodePoints`) of 8 rather than 15.
    public var hasSecondFactor: Bool
    /// Which fields are shown and required as the values change; nil when presence never changes.
    public var conditions: FormConditions?
    /// What is checked of the whole object at a tap, beyond the fields' rules; nil for nothing.
    public var documentCheck: DocumentCheck?

    /// The least `minCodePoints` a secret field may declare, with and without a second factor.
    public static let passwordMinimum = (alone: 15, withSecondFactor: 8)
    /// The least `maxCodePoints` a secret field may declare (NIST SP 800-63B: at least 64).
    public static let passwordMaximumAtLeast = 64

    /// Makes a definition after checking that it is coherent.
    public init(
        kind: String, title: Message? = nil, fields: [FieldDefinition], submit: SubmitAction,
        translations: [String: [String: String]] = [:], hasSecondFactor: Bool = false
    ) throws(FormDefinitionError) {
        try self.init(
            kind: kind, title: title, fields: fields, submit: submit, translations: translations,
            hasSecondFactor: hasSecondFactor, compilingPatterns: true)
    }

    /// The built-in forms pass `compilingPatterns: false`: their patterns are constants that the
    /// tests compile, and compiling the first ICU pattern would add about 2 ms to every start.
    init(
        kind: String, title: Message? = nil, fields: [FieldDefinition], submit: SubmitAction,
        translations: [String: [String: String]] = [:], hasSecondFactor: Bool = false, compilingPatterns: Bool
    ) throws(FormDefinitionError) {
        self.kind = kind
        self.hasSecondFactor = hasSecondFactor
        self.title = title ?? Message("title", FieldDefinition.words(of: kind))
        self.fields = fields
        self.submit = submit
        self.translations = translations
        try validate(compilingPatterns: compilingPatterns)
    }

    /// The position of the named field.
    public func index(of field: String) -> Int? {
        fields.firstIndex { $0.name == field }
    }

    private func validate(compilingPatterns: Bool) throws(FormDefinitionError) {
        if fields.isEmpty { throw .noFields(kind: kind) }
        var seen = Set<String>()
        for field in fields {
            if field.name.isEmpty { throw .emptyFieldName(kind: kind) }
            if !seen.insert(field.name).inserted { throw .duplicateField(kind: kind, field: field.name) }
        }
        for field in fields {
            // Unique within the field: two fields may each have a `usernameAvailability` check.
            var checkNames = Set<String>()
            for check in field.remoteChecks {
                if !RemoteCheck.isValidName(check.name) { throw .invalidCheckName(kind: kind, field: field.name, check: check.name) }
                if !checkNames.insert(check.name).inserted { throw .duplicateCheck(kind: kind, field: field.name, check: check.name) }
                for input in check.reads where !seen.contains(input) {
                    throw .unknownCheckInput(kind: kind, field: field.name, check: check.name, input: input)
                }
            }
            if field.uniqueCheck != nil {
                // The claim is made by the registration, and kept in the clear with the account.
                guard case .registerAccount = submit.kind else { throw .uniqueWithoutRegistration(kind: kind, field: field.name) }
                if field.isSecret { throw .uniqueSecret(kind: kind, field: field.name) }
            }
            let requirements = field.rules.filter { $0.requirement != nil }.count
            if requirements > 0 && requirements < field.rules.count { throw .partialChecklist(kind: kind, field: field.name) }
            if requirements > FieldDefinition.maxRequirements { throw .tooManyRequirements(kind: kind, field: field.name, count: requirements) }
            for dependency in field.rules.flatMap(\.dependencies) where !seen.contains(dependency) {
                throw .unknownField(kind: kind, field: dependency, referencedBy: field.name)
            }
            for rule in field.rules {
                switch rule.check {
                case .minLength(let bound), .maxLength(let bound):
                    if bound < 0 { throw .negativeLength(kind: kind, field: field.name, length: bound) }
                case .equalsField(let other):
                    if other == field.name { throw .selfReference(kind: kind, field: field.name) }
                case .pattern(let pattern):
                    if compilingPatterns, !Rule.Check.isValidPattern(pattern) {
                        throw .invalidPattern(kind: kind, field: field.name, pattern: pattern)
                    }
                case .minCodePoints(let bound) where field.isSecret:
                    let least = hasSecondFactor ? Self.passwordMinimum.withSecondFactor : Self.passwordMinimum.alone
                    if bound < least { throw .passwordMinimumTooLow(kind: kind, field: field.name, minimum: bound, least: least) }
                case .maxCodePoints(let bound) where field.isSecret:
                    if bound < Self.passwordMaximumAtLeast { throw .passwordMaximumTooLow(kind: kind, field: field.name, maximum: bound) }
                case .minCodePoints(let bound), .maxCodePoints(let bound):
                    if bound < 0 { throw .negativeLength(kind: kind, field: field.name, length: bound) }
                case .notSimilarTo(let other):
                    if other == field.name { throw .selfReference(kind: kind, field: field.name) }
                case .allowedCharacters, .notOneOf, .anyOf, .emailAddress, .notCommonPassword, .notRepetitiveOrSequential,
                     .notDictionaryWord, .scriptRestriction, .oneOf, .number, .format: break
                }
            }
        }
        for name in submit.fieldNames where !seen.contains(name) {
            throw .unknownField(kind: kind, field: name, referencedBy: "submit")
        }
    }
}

/// Why a form definition cannot be used.
public enum FormDefinitionError: Error, Hashable, Sendable, CustomStringConvertible {
    case noFields(kind: String)
    case emptyFieldName(kind: String)
    case duplicateField(kind: String, field: String)
    case unknownField(kind: String, field: String, referencedBy: String)
    case negativeLength(kind: String, field: String, length: Int)
    case selfReference(kind: String, field: String)
    case invalidPattern(kind: String, field: String, pattern: String)
    case invalidCheckName(kind: String, field: String, check: String)
    case duplicateCheck(kind: String, field: String, check: String)
    case unknownCheckInput(kind: String, field: String, check: String, input: String)
    case uniqueWithoutRegistration(kind: String, field: String)
    case uniqueSecret(kind: String, field: String)
    case passwordMinimumTooLow(kind: String, field: String, minimum: Int, least: Int)
    case passwordMaximumTooLow(kind: String, field: String, maximum: Int)
    case partialChecklist(kind: String, field: String)
    case tooManyRequirements(kind: String, field: String, count: Int)

    public var description: String {
        switch self {
        case .noFields(let kind):
            return "form '\(kind)' has no fields; give it at least one"
        case .emptyFieldName(let kind):
            return "form '\(kind)' has a field with an empty name; name every field"
        case .duplicateField(let kind, let field):
            return "form '\(kind)' defines field '\(field)' twice; field names must be unique"
        case .unknownField(let kind, let field, let referrer):
            return "form '\(kind)': '\(referrer)' refers to field '\(field)', which the form does not define"
        case .negativeLength(let kind, let field, let length):
            return "form '\(kind)': field '\(field)' has a length bound of \(length); bounds must be 0 or more"
        case .selfReference(let kind, let field):
            return "form '\(kind)': field '\(field)' must equal itself, which always holds; name another field"
        case .invalidPattern(let kind, let field, let pattern):
            return "form '\(kind)': field '\(field)' has the pattern '\(pattern)', which is not a valid regular expression"
        case .invalidCheckName(let kind, let field, let check):
            return "form '\(kind)': field '\(field)' has a check named '\(check)'; a name is 1 to 64 letters, digits, '_', '.' or '-'"
        case .duplicateCheck(let kind, let field, let check):
            return "form '\(kind)': field '\(field)' has two checks named '\(check)'; a field's check names must be unique"
        case .unknownCheckInput(let kind, let field, let check, let input):
            return "form '\(kind)': check '\(check)' of field '\(field)' sends '{\(input)}', which is neither {value} nor a field of the form"
        case .uniqueWithoutRegistration(let kind, let field):
            return "form '\(kind)': field '\(field)' has a unique check, which only a registerAccount submission can claim"
        case .uniqueSecret(let kind, let field):
            return "form '\(kind)': field '\(field)' is secret, so it cannot be unique (its value would be kept in the clear)"
        case .passwordMinimumTooLow(let kind, let field, let minimum, let least):
            return "form '\(kind)': secret field '\(field)' has minCodePoints \(minimum); NIST SP 800-63B asks for at least \(least)"
                + (least == FormDefinition.passwordMinimum.alone ? " (8 when the form declares \"secondFactor\": true)" : "")
        case .partialChecklist(let kind, let field):
            return "form '\(kind)': field '\(field)' states the requirement of some rules but not all; a checklist lists every rule"
        case .tooManyRequirements(let kind, let field, let count):
            return "form '\(kind)': field '\(field)' has \(count) requirements; a checklist has at most \(FieldDefinition.maxRequirements)"
        case .passwordMaximumTooLow(let kind, let field, let maximum):
            return "form '\(kind)': secret field '\(field)' has maxCodePoints \(maximum); NIST SP 800-63B asks to allow at least \(FormDefinition.passwordMaximumAtLeast)"
        }
    }
}
