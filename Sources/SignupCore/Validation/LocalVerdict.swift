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
    private let dependencyIndices: [[Int]]

    init(definition: FormDefinition) {
        self.definition = definition
        dependencyIndices = definition.fields.map { field in
            field.dependencies.compactMap { definition.index(of: $0) }
        }
    }

    func evaluate(_ form: FormValues) -> [LocalVerdict] {
        definition.fields.indices.map { evaluate(field: $0, in: form) }
    }

    private func evaluate(field index: Int, in form: FormValues) -> LocalVerdict {
        let field = definition.fields[index]
        let value = form.values[index]
        let version = dependencyIndices[index].reduce(form.versions[index]) { max($0, form.versions[$1]) }
        func verdict(_ result: FieldResult, remote: Bool = false) -> LocalVerdict {
            LocalVerdict(result: result, version: version, needsRemoteCheck: remote, value: value)
        }

        if value.isEmpty {
            return verdict(field.isRequired ? field.emptyMessage.result(.empty) : field.successMessage.result(.ok))
        }
        let valueOf = { (name: String) -> String in
            definition.index(of: name).map { form.values[$0] } ?? ""
        }
        for rule in field.rules {
            if let failure = rule.evaluate(value, valueOf: valueOf) { return verdict(failure) }
        }
        if let remote = field.remoteCheck {
            return verdict(remote.validating.result(.validating), remote: true)
        }
        return verdict(field.successMessage.result(.ok))
    }
}
