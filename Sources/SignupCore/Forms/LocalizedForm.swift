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
    /// The remote check's rendered answers, for fields that have one.
    let remoteResults: [RemoteCheckResults?]
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
        remoteResults = definition.fields.map { field in
            field.remoteCheck.map { RemoteCheckResults($0, localizer: localizer, results: &results) }
        }
        self.results = results
        fieldNames = definition.fields.map(\.name)
        fieldIndices = fieldNames.count <= Self.largestScannedForm ? nil
            : Dictionary(fieldNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
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

/// What a remote check can answer, rendered in the form's locale (in its `ResultTable`).
struct RemoteCheckResults: Sendable {
    let passed: ResultID
    let rejected: ResultID
    let unavailable: ResultID

    init(_ check: RemoteCheck, localizer: Localizer, results: inout ResultTable) {
        passed = results.add(localizer.result(check.passed, .ok))
        rejected = results.add(localizer.result(check.rejected, .failed))
        unavailable = results.add(localizer.result(check.unavailable, .failed))
    }
}
