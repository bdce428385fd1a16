/// A field's result from its local rules alone.
struct LocalVerdict: Equatable {
    /// The local result (in the form's `ResultTable`); `validating` when the value passed and a
    /// remote check must decide.
    var result: ResultID
    /// The edit version of the newest value this verdict read.
    var version: Int
    var needsRemoteCheck: Bool
    /// The normalised value the rules judged, which a remote check asks about.
    var value: String
    /// What the field's checks said of `value` and the values they read, to reuse when the field
    /// is judged again with those values (`KeptOutcomes`).
    var kept = KeptOutcomes.none
}

/// Runs each field's local rules over a form's values.
///
/// Every result a field can show locally is rendered once, up front, into the form's
/// `ResultTable` (rule params are fixed per rule), and an edit re-judges only the edited field and
/// the fields whose rules read it.
final class LocalValidator: Sendable {
    /// For each field, the fields to judge again when its value changes: itself and every field
    /// whose rules read it, in form order.
    let dependents: [[Int]]
    /// Shown for a field whose pattern could not decide within its `MatchBudget`.
    let tooCostly: ResultID
    private let fields: [Field]

    /// What `tooCostly` shows.
    static let tooCostlyMessage = Message("value.tooCostly", "Too costly to check; send the value again to retry")
    /// What a rule shows that needs a library or a list this machine lacks: words for the person
    /// filling the form; what the operator must install goes to stderr at start-up
    /// (`FormDefinition.missingRequirements`), never to the form.
    static let cannotRunMessage = Message("rule.unavailable", "This can't be checked right now; please try again later")

    /// What judging one field needs, in one object: a keystroke reads it without copying the
    /// field's definition (and retaining every message in it).
    private final class Field: Sendable {
        let normalization: FieldDefinition.Normalization
        /// The field's rules, in order, each with the result shown when it is the first to fail,
        /// and whether its outcome may be kept (`CompiledCheck.outcomeCanBeKept`).
        let checks: [(check: CompiledCheck, failure: ResultID, isKept: Bool)]
        /// By the position of each field of the form: the kept checks (of the first eight) that
        /// read that field's value, whose outcomes an edit of it makes stale.
        let keptChecksReading: [UInt8]
        /// What an empty value shows as the definition declares the field; `requiredEmpty` is what
        /// it shows while the form's conditions require it.
        let empty: ResultID
        let requiredEmpty: ResultID
        let success: ResultID
        /// Shown while a remote check decides; nil for a field without one.
        let validating: ResultID?
        /// For a field whose rules are all requirements (a checklist): the result for each set of
        /// rules failing at once, by a mask of their positions less one; the first failing rule's code,
        /// with `params.unmet` listing every failing rule's code. Empty for any other field.
        let checklist: [ResultID]
        /// Whether the field keeps what its checks said (`KeptOutcomes`): when it has checks
        /// whose outcomes can be kept and is judged again for other fields' edits.
        let keepsOutcomes: Bool

        init(_ field: FieldDefinition, in definition: FormDefinition, localizer: Localizer, results: inout ResultTable) {
            normalization = field.normalization
            // A rule this machine cannot run refuses every value and names itself by its code.
            let missing = field.rules.map(\.check.missingRequirement)
            func failure(_ rule: Int, unmet: [JSONValue]? = nil) -> ResultID {
                var params = missing[rule] == nil ? field.rules[rule].failureParams : ["rule": .string(field.rules[rule].failure.code)]
                if let unmet { params["unmet"] = .array(unmet) }
                return results.add(localizer.result(missing[rule] == nil ? field.rules[rule].failure : LocalValidator.cannotRunMessage, .failed, params))
            }
            let checks = field.rules.indices.map { rule in
                let check = missing[rule] == nil ? CompiledCheck(field.rules[rule].check, in: definition) : .cannotRun
                return (check: check, failure: failure(rule), isKept: check.outcomeCanBeKept)
            }
            self.checks = checks
            keptChecksReading = definition.fields.indices.map { other in
                checks.prefix(UInt8.bitWidth).enumerated().reduce(0) { mask, entry in
                    entry.element.isKept && entry.element.check.reads(field: other) ? mask | 1 << entry.offset : mask
                }
            }
            keepsOutcomes = !field.dependencies.isEmpty && checks.contains(where: \.isKept)
            // Every failing set of a checklist's rules, rendered up front (2^`maxRequirements` at most).
            checklist = !field.hasChecklist ? [] : (1..<(1 << field.rules.count)).map { mask in
                let failing = field.rules.indices.filter { mask & (1 << $0) != 0 }
                return failure(failing[0], unmet: failing.map { .string(field.rules[$0].failure.code) })
            }
            success = results.add(localizer.result(field.successMessage, .ok))
            requiredEmpty = results.add(localizer.result(field.emptyMessage, .empty))
            empty = field.isRequired ? requiredEmpty : success
            validating = field.remoteChecks.first.map { results.add(localizer.result($0.validating, .validating)) }
        }

        func normalized(_ value: String) -> String {
            normalization.apply(to: value)
        }

        /// The result of the first rule `value` fails, `tooCostly` for one that could not tell,
        /// nil when it passes them all. A checklist judges every rule, so that each requirement
        /// ticks as it is met; any other field stops at the first failure.
        func failure(of value: String, valueAt: (Int) -> String, budget: MatchBudget, tooCostly: ResultID) -> ResultID? {
            failure(tooCostly: tooCostly) { _, check in check.check.judge(value, valueAt: valueAt, budget: budget) }
        }

        /// `failure(of:…)` for a field that `keepsOutcomes`: a check whose outcome `kept` holds
        /// is not run again, and `kept` takes what the others say. Apart, so that the fields that
        /// keep nothing judge as before.
        @inline(never)
        func failure(of value: String, valueAt: (Int) -> String, budget: MatchBudget, tooCostly: ResultID,
                     kept: inout KeptOutcomes) -> ResultID? {
            failure(tooCostly: tooCostly) { position, check in
                if let known = kept.outcome(ofCheckAt: position) {
                    return check.check.paysAgain(for: value, valueAt: valueAt, budget: budget) ? known : .tooCostly
                }
                let outcome = check.check.judge(value, valueAt: valueAt, budget: budget)
                if check.isKept { kept.keep(outcome, ofCheckAt: position) }
                return outcome
            }
        }

        /// The result of the first rule whose `outcome` fails, as `failure(of:…)` says; inlined
        /// into each, so that neither calls through a closure.
        @inline(__always)
        private func failure(
            tooCostly: ResultID, outcome: (_ position: Int, _ check: (check: CompiledCheck, failure: ResultID, isKept: Bool)) -> CheckOutcome
        ) -> ResultID? {
            checks.withUnsafeBufferPointer { checks -> ResultID? in
                var failing = 0
                for position in checks.indices {
                    switch outcome(position, checks[position]) {
                    case .passes: continue
                    case .fails where checklist.isEmpty: return checks[position].failure
                    // A checklist has at most `FieldDefinition.maxRequirements` rules.
                    case .fails: failing |= 1 << position
                    case .tooCostly: return tooCostly
                    }
                }
                return failing == 0 ? nil : checklist[failing - 1]
            }
        }
    }

    init(definition: FormDefinition, localizer: Localizer, results: inout ResultTable) {
        let dependencies = definition.fields.map { field in
            Set(field.dependencies.compactMap { definition.index(of: $0) })
        }
        dependents = definition.fields.indices.map { changed in
            definition.fields.indices.filter { $0 == changed || dependencies[$0].contains(changed) }
        }
        tooCostly = results.add(localizer.result(Self.tooCostlyMessage, .failed))
        var fields: [Field] = []
        for field in definition.fields {
            fields.append(Field(field, in: definition, localizer: localizer, results: &results))
        }
        self.fields = fields
    }

    /// What the field at `index` shows while it is hidden: nothing is sent, and it counts as ok.
    func hiddenResult(ofField index: Int) -> ResultID {
        fields[index].success
    }

    /// The kept checks of the field at `index` that read the field at `other` (`KeptOutcomes.forget`).
    func keptChecks(ofField index: Int, reading other: Int) -> UInt8 {
        fields[index].keptChecksReading[other]
    }

    /// A value of the field at `index` as its rules read it.
    func normalized(_ value: String, ofField index: Int) -> String {
        fields[index].normalized(value)
    }

    /// Judges one field's current value, reading values by position, as `normalized` gives them,
    /// through `valueAt`; `version` is the edit version the verdict carries, and patterns spend
    /// `budget`.
    /// `required`, when given, is the form's conditions' word on whether the field must be filled.
    /// `kept` is what the field's checks said before of the values they read, while those are
    /// unchanged (the last verdict's `kept`, less what `FormState.edit` forgot); the verdict
    /// carries what they say now.
    func verdict(
        forField index: Int, version: Int, budget: MatchBudget, required: Bool? = nil, kept: KeptOutcomes = .none,
        valueAt valueOf: (Int) -> String
    ) -> LocalVerdict {
        fields.withUnsafeBufferPointer { fields in
            // In place, through the buffer of a `let` array this validator holds: a field bound
            // as usual was retained, with its checks, around every call out.
            let value = valueOf(index)
            var kept = kept
            func verdict(_ result: ResultID, remote: Bool = false) -> LocalVerdict {
                LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value, kept: kept)
            }

            if value.isEmpty {
                guard let required else { return verdict(fields[index].empty) }
                return verdict(required ? fields[index].requiredEmpty : fields[index].success)
            }
            let failure = fields[index].keepsOutcomes
                ? fields[index].failure(of: value, valueAt: valueOf, budget: budget, tooCostly: tooCostly, kept: &kept)
                : fields[index].failure(of: value, valueAt: valueOf, budget: budget, tooCostly: tooCostly)
            if let failure { return verdict(failure) }
            if let validating = fields[index].validating { return verdict(validating, remote: true) }
            return verdict(fields[index].success)
        }
    }

}
