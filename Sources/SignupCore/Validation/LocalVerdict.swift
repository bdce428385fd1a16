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
struct LocalValidator {
    private let definition: FormDefinition
    private let localizer: Localizer
    private let dependencyIndices: [[Int]]

    init(definition: FormDefinition, localizer: Localizer) {
        self.definition = definition
        self.localizer = localizer
        dependencyIndices = definition.fields.map { field in
            field.dependencies.compactMap { definition.index(of: $0) }
        }
    }

    func evaluate(_ form: FormValues) -> [LocalVerdict] {
        definition.fields.indices.map { evaluate(field: $0, in: form) }
    }

    private func evaluate(field index: Int, in form: FormValues) -> LocalVerdict {
        let field = definition.fields[index]
        let value = field.normalized(form.values[index])
        let version = dependencyIndices[index].reduce(form.versions[index]) { max($0, form.versions[$1]) }
        func verdict(_ result: FieldResult, remote: Bool = false) -> LocalVerdict {
            LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value)
        }

        if value.isEmpty {
            return verdict(field.isRequired ? localizer.result(field.emptyMessage, .empty) : localizer.result(field.successMessage, .ok))
        }
        let valueOf = { (name: String) -> String in
            definition.index(of: name).map { definition.fields[$0].normalized(form.values[$0]) } ?? ""
        }
        for rule in field.rules {
            if let (message, params) = rule.evaluate(value, valueOf: valueOf) {
                return verdict(localizer.result(message, .failed, params))
            }
        }
        if let remote = field.remoteCheck {
            return verdict(localizer.result(remote.validating, .validating), remote: true)
        }
        return verdict(localizer.result(field.successMessage, .ok))
    }
}
