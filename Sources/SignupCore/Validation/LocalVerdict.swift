/// A field's result from its local rules alone.
struct LocalVerdict: Equatable {
    /// The local result; `validating` when the value passed and a remote check must decide.
    var result: FieldResult
    /// The edit version of the newest value this verdict read.
    var version: Int
    var needsRemoteCheck: Bool
    /// The normalised value the rules judged, which a remote check asks about.
    var value: String
}

/// Runs each field's local rules over a form's values.
///
/// Every result a field can show locally is rendered once, up front (rule params are fixed per
/// rule), and an edit re-judges only the edited field and the fields whose rules read it.
final class LocalValidator: Sendable {
    /// For each field, the fields to judge again when its value changes: itself and every field
    /// whose rules read it, in form order.
    let dependents: [[Int]]
    private let fields: [Field]

    /// What judging one field needs, in one object: a keystroke reads it without copying the
    /// field's definition (and retaining every message in it).
    private final class Field: Sendable {
        let normalization: FieldDefinition.Normalization
        /// The field's rules, in order, each with the result shown when it is the first to fail.
        let checks: [(check: CompiledCheck, failure: FieldResult)]
        let empty: FieldResult
        let success: FieldResult
        /// Shown while a remote check decides; nil for a field without one.
        let validating: FieldResult?

        init(_ field: FieldDefinition, in definition: FormDefinition, localizer: Localizer) {
            normalization = field.normalization
            checks = field.rules.map { rule in
                (CompiledCheck(rule.check, in: definition), localizer.result(rule.failure, .failed, rule.failureParams))
            }
            empty = field.isRequired ? localizer.result(field.emptyMessage, .empty) : localizer.result(field.successMessage, .ok)
            success = localizer.result(field.successMessage, .ok)
            validating = field.remoteCheck.map { localizer.result($0.validating, .validating) }
        }

        func normalized(_ value: String) -> String {
            normalization.apply(to: value)
        }
    }

    init(definition: FormDefinition, localizer: Localizer) {
        let dependencies = definition.fields.map { field in
            Set(field.dependencies.compactMap { definition.index(of: $0) })
        }
        dependents = definition.fields.indices.map { changed in
            definition.fields.indices.filter { $0 == changed || dependencies[$0].contains(changed) }
        }
        fields = definition.fields.map { Field($0, in: definition, localizer: localizer) }
    }

    /// Judges one field's current value; `version` is the edit version the verdict carries.
    func verdict(forField index: Int, version: Int, in form: FormValues) -> LocalVerdict {
        let field = fields[index]
        let value = field.normalized(form.values[index])
        func verdict(_ result: FieldResult, remote: Bool = false) -> LocalVerdict {
            LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value)
        }

        if value.isEmpty { return verdict(field.empty) }
        // By position: iterating the pairs would copy each (and retain its result) on every keystroke.
        let checks = field.checks
        for position in checks.indices
        where !checks[position].check.passes(value, valueAt: { self.fields[$0].normalized(form.values[$0]) }) {
            return verdict(checks[position].failure)
        }
        if let validating = field.validating { return verdict(validating, remote: true) }
        return verdict(field.success)
    }
}
