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
    private let definition: FormDefinition
    /// For each field, the fields to judge again when its value changes: itself and every field
    /// whose rules read it, in form order.
    let dependents: [[Int]]
    private let results: [FieldResults]

    /// A field's possible local results, rendered in the form's locale.
    private struct FieldResults: Sendable {
        var empty: FieldResult
        var success: FieldResult
        var validating: FieldResult?
        var failures: [FieldResult]
    }

    init(definition: FormDefinition, localizer: Localizer) {
        self.definition = definition
        let dependencies = definition.fields.map { field in
            Set(field.dependencies.compactMap { definition.index(of: $0) })
        }
        dependents = definition.fields.indices.map { changed in
            definition.fields.indices.filter { $0 == changed || dependencies[$0].contains(changed) }
        }
        results = definition.fields.map { field in
            FieldResults(
                empty: field.isRequired ? localizer.result(field.emptyMessage, .empty) : localizer.result(field.successMessage, .ok),
                success: localizer.result(field.successMessage, .ok),
                validating: field.remoteCheck.map { localizer.result($0.validating, .validating) },
                failures: field.rules.map { localizer.result($0.failure, .failed, $0.failureParams) })
        }
    }

    /// Judges one field's current value; `version` is the edit version the verdict carries.
    func verdict(forField index: Int, version: Int, in form: FormValues) -> LocalVerdict {
        // Read the field in place: copying a FieldDefinition retains every message it holds.
        let value = definition.fields[index].normalized(form.values[index])
        func verdict(_ result: FieldResult, remote: Bool = false) -> LocalVerdict {
            LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value)
        }

        if value.isEmpty { return verdict(results[index].empty) }
        let valueOf = { (name: String) -> String in
            self.definition.index(of: name).map { self.definition.fields[$0].normalized(form.values[$0]) } ?? ""
        }
        let rules = definition.fields[index].rules
        for position in rules.indices where !rules[position].passes(value, valueOf: valueOf) {
            return verdict(results[index].failures[position])
        }
        if let validating = results[index].validating { return verdict(validating, remote: true) }
        return verdict(results[index].success)
    }
}
