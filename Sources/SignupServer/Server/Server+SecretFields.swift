import SignupCore

extension Server {
    /// The secret field `field` of the form open under `form`, or of a new form of `kind` when
    /// none is open there; without a form, of `kind` when one is named (a `form.open` that lets the
    /// server choose the id, a `form.validate`), else of the default form; nil for a field that is
    /// not secret.
    package func secretField(_ field: String, inForm form: String?, kind: String?) -> FieldDefinition? {
        let open = form == nil && kind != nil ? nil : forms[form ?? Self.defaultFormID]?.pipeline.definition
        let definition = open ?? catalog.definition(kind ?? FormDefinition.signup.kind)
        guard let found = definition?.fields.first(where: { $0.name == field }) else {
            // An unknown field of a known form is refused; of a form not yet open, judge it by any kind's.
            return catalog.definitions.lazy.flatMap(\.fields).first { $0.name == field && $0.isSecret }
        }
        return found.isSecret ? found : nil
    }

    /// The values, as the rules read them, of the fields that are not secret and that the rules
    /// of `field` in the open form `form` (the default form when nil; `hash` is
    /// `FormIDHash.process` of it) compare it with by how alike they are; nil when there are none,
    /// or no such form is open.
    package func comparedValues(ofField field: String, inForm form: String?, hash: UInt64?) -> [String: String]? {
        let pipeline = form.map { forms.pipeline($0, processHash: hash) } ?? forms.pipeline(Self.defaultFormID)
        guard let pipeline, let edited = pipeline.index(ofField: field) else { return nil }
        return pipeline.valuesComparedByLikeness(withField: edited)
    }
}
