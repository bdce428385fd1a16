import SignupProtocol

extension KnownFieldNames {
    /// The field names of every kind in `catalog`.
    package init(_ catalog: FormCatalog) {
        self.init(catalog.definitions.lazy.flatMap { $0.fields.map(\.name) })
    }
}
