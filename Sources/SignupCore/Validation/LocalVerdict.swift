/// A field's result from its local rules alone.
struct LocalVerdict: Equatable {
    /// The local result; `validating` when the value passed and a remote check must decide.
    var result: FieldResult
    /// The newest edit version among the values this verdict read.
    var version: Int
    var needsRemoteCheck: Bool
    var value: String
}

/// Runs each field's local rules over a form's values.
///
/// Every result a field can show locally is rendered once, up front (rule params are fixed per
/// rule), and a field is judged again only when its value or a value its rules read has changed:
/// an edit costs the rules of the fields it touches, not of the whole form.
final class LocalValidator {
    private let definition: FormDefinition
    private let dependencyIndices: [[Int]]
    private let results: [FieldResults]
    /// The verdicts of the last evaluation, reused for fields whose inputs did not change.
    private var last: [LocalVerdict]?

    /// A field's possible local results, rendered in the form's locale.
    private struct FieldResults {
        var empty: FieldResult
        var success: FieldResult
        var validating: FieldResult?
        var failures: [FieldResult]
    }

    init(definition: FormDefinition, localizer: Localizer) {
        self.definition = definition
        dependencyIndices = definition.fields.map { field in
            field.dependencies.compactMap { definition.index(of: $0) }
        }
        results = definition.fields.map { field in
            FieldResults(
                empty: field.isRequired ? localizer.result(field.emptyMessage, .empty) : localizer.result(field.successMessage, .ok),
                success: localizer.result(field.successMessage, .ok),
                validating: field.remoteCheck.map { localizer.result($0.validating, .validating) },
                failures: field.rules.map { localizer.result($0.failure, .failed, $0.failureParams) })
        }
    }

    func evaluate(_ form: FormValues) -> [LocalVerdict] {
        var verdicts: [LocalVerdict] = []
        verdicts.reserveCapacity(definition.fields.count)
        for index in definition.fields.indices {
            let version = dependencyIndices[index].reduce(form.versions[index]) { max($0, form.versions[$1]) }
            if let last, last[index].version == version {
                verdicts.append(last[index])
            } else {
                verdicts.append(evaluate(field: index, version: version, in: form))
            }
        }
        last = verdicts
        return verdicts
    }

    private func evaluate(field index: Int, version: Int, in form: FormValues) -> LocalVerdict {
        let field = definition.fields[index]
        let value = field.normalized(form.values[index])
        let results = self.results[index]
        func verdict(_ result: FieldResult, remote: Bool = false) -> LocalVerdict {
            LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value)
        }

        if value.isEmpty { return verdict(results.empty) }
        let valueOf = { (name: String) -> String in
            self.definition.index(of: name).map { self.definition.fields[$0].normalized(form.values[$0]) } ?? ""
        }
        for (position, rule) in field.rules.enumerated() where !rule.passes(value, valueOf: valueOf) {
            return verdict(results.failures[position])
        }
        if let validating = results.validating { return verdict(validating, remote: true) }
        return verdict(results.success)
    }
}
