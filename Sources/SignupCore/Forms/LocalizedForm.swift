/// A form definition made ready to run in one locale: every result it can show rendered once and
/// its fields' dependencies resolved. Build one per kind and locale and share it between the forms
/// opened from it; that keeps opening a form cheap and an open form small.
public final class LocalizedForm: Sendable {
    public let definition: FormDefinition
    /// The locale of the form's messages.
    public let catalog: MessageCatalog
    let localizer: Localizer
    let validator: LocalValidator
    /// Every result the fields can show, rendered.
    let results: ResultTable
    /// Each field's remote checks with their rendered answers, in order (none for most fields).
    let remoteChecks: [[RemoteCheckResults]]
    /// How many remote checks the form has: each has a place (`RemoteCheckResults.place`) in the
    /// answers a form remembers.
    let remoteCheckCount: Int
    /// Whether each field has remote checks: what every keystroke asks, read without the lists.
    let isChecked: [Bool]
    /// The fields' names by position, read on every event without copying their definitions.
    let fieldNames: [String]
    /// For forms too large to scan; nil for the others.
    private let fieldIndices: [String: Int]?
    /// Up to this many fields a scan finds a name sooner than hashing it (SipHash alone costs more
    /// than comparing a handful of short names, which mostly differ in length).
    private static let largestScannedForm = 8

    public init(definition: FormDefinition, catalog: MessageCatalog = .english) {
        self.definition = definition
        self.catalog = catalog
        let localizer = Localizer(catalog: catalog, definition: definition)
        self.localizer = localizer
        var results = ResultTable()
        validator = LocalValidator(definition: definition, localizer: localizer, results: &results)
        var place = 0
        remoteChecks = definition.fields.map { field in
            field.remoteChecks.map { check in
                defer { place += 1 }
                return RemoteCheckResults(
                    check, place: place, reads: check.reads.compactMap(definition.index(of:)), localizer: localizer, results: &results)
            }
        }
        remoteCheckCount = place
        isChecked = remoteChecks.map { !$0.isEmpty }
        self.results = results
        fieldNames = definition.fields.map(\.name)
        fieldIndices = fieldNames.count <= Self.largestScannedForm ? nil
            : Dictionary(fieldNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The fields that are not secret which the rules of the field at `index` compare it with by
    /// how alike they are, by position. Found afresh: only a recording asks, for the few such fields.
    func fieldsComparedByLikeness(with index: Int) -> [Int] {
        let fields = definition.fields
        return fields[index].rules.flatMap(\.check.fieldsComparedByLikeness).compactMap(self.index(ofField:)).filter { !fields[$0].isSecret }
    }

    /// Every field's result from its local rules alone, `values` by field name (a field not given
    /// is empty), exactly as a form opened with those values shows it before any remote check
    /// answers: a field that passes its rules and has a remote check is `validating`. What
    /// `form.validate` answers; patterns spend `budget`.
    public func localResults(for values: [String: String], budget: MatchBudget) -> Verdicts {
        let normalized = fieldNames.indices.map { validator.normalized(values[fieldNames[$0]] ?? definition.fields[$0].initialValue ?? "", ofField: $0) }
        let presence = definition.conditions?.presence(for: normalized) ?? []
        let shown = fieldNames.indices.map { presence.isEmpty || presence[$0].shown }
        var verdicts = fieldNames.indices.map { index -> FieldResult in
            guard shown[index] else { return results[validator.hiddenResult(ofField: index)] }
            let required = presence.isEmpty ? nil : presence[index].required
            return results[validator.verdict(forField: index, version: 0, budget: budget, required: required, valueAt: { normalized[$0] }).result]
        }
        // The whole object, as at a tap, once every shown field's own verdict accepts it.
        var whole: [ReportedIssue] = []
        if let check = definition.documentCheck, verdicts.indices.allSatisfy({ !shown[$0] || verdicts[$0].state == .ok || verdicts[$0].state == .validating }) {
            for issue in check.issues(values: normalized.indices.map { shown[$0] ? normalized[$0] : "" }, shown: shown) {
                if let name = issue.field, let index = index(ofField: name), shown[index], verdicts[index].state != .failed {
                    verdicts[index] = issue.failedResult
                } else {
                    whole.append(issue)
                }
            }
        }
        return Verdicts(fields: verdicts, shown: shown, issues: whole)
    }

    /// Every field's local result for a set of values (`localResults`), whether each is shown, and
    /// what the whole object fails beyond its fields.
    public struct Verdicts: Sendable {
        public var fields: [FieldResult]
        public var shown: [Bool]
        public var issues: [ReportedIssue]

        /// No shown field failed or empty, and nothing wrong with the whole.
        public var isValid: Bool {
            issues.isEmpty && fields.indices.allSatisfy { !shown[$0] || fields[$0].state == .ok || fields[$0].state == .validating }
        }
    }

    /// The position of the named field, or nil when the form has no such field.
    public func index(ofField name: String) -> Int? {
        if let fieldIndices { return fieldIndices[name] }
        // The server hands back the names' own strings (see KnownFieldNames): found by identity,
        // they need no comparison of contents, which for names of one length cost the most.
        for index in fieldNames.indices where fieldNames[index]._isIdentical(to: name) { return index }
        let length = name.utf8.count
        for index in fieldNames.indices where fieldNames[index].utf8.count == length && fieldNames[index] == name {
            return index
        }
        return nil
    }
}

/// A remote check and what it can answer, rendered in the form's locale (in its `ResultTable`).
/// An object: a keystroke's path reads it by one reference, not by copying the check's texts.
final class RemoteCheckResults: Sendable {
    /// The check, as its questions carry it.
    let shared: SharedRemoteCheck
    var check: RemoteCheck { shared.check }
    /// Its position among all the form's checks, in field order.
    let place: Int
    /// The positions of the other fields it reads (`RemoteCheck.reads`).
    let reads: [Int]
    let passed: ResultID
    let rejected: ResultID
    let unavailable: ResultID
    /// Shown when a fail-open check, the field's last, passed because its backend could not be
    /// reached: `ok`, but named apart from a real pass (`check.skipped`).
    let skipped: ResultID

    static let skippedMessage = Message("check.skipped", "Accepted without this check: the service could not be reached")

    init(_ check: RemoteCheck, place: Int, reads: [Int], localizer: Localizer, results: inout ResultTable) {
        shared = SharedRemoteCheck(check)
        self.place = place
        self.reads = reads
        passesWhenUnavailable = check.kind.type.passesWhenUnavailable
        passed = results.add(localizer.result(check.passed, .ok))
        rejected = results.add(localizer.result(check.rejected, .failed))
        unavailable = results.add(localizer.result(check.unavailable, .failed))
        skipped = passesWhenUnavailable ? results.add(localizer.result(Self.skippedMessage, .ok)) : unavailable
    }

    /// Whether an unavailable backend counts as passing this check (fail-open).
    let passesWhenUnavailable: Bool
}
