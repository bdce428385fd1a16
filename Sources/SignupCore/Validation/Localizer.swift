/// Renders a form's messages in one locale: the form's own translations first, then the catalog,
/// then the definition's English text.
struct Localizer {
    let catalog: MessageCatalog
    let translations: [String: String]

    init(catalog: MessageCatalog, definition: FormDefinition) {
        self.catalog = catalog
        translations = definition.translations[catalog.locale] ?? [:]
    }

    func result(_ message: Message, _ state: FieldState, _ params: [String: JSONValue] = [:]) -> FieldResult {
        FieldResult(state: state, code: message.code, params: params,
                    message: catalog.render(message, params, translations: translations))
    }

    /// A text with params, such as a checklist item.
    func render(_ message: Message, _ params: [String: JSONValue]) -> String {
        catalog.render(message, params, translations: translations)
    }

    /// A text with no params, such as a label.
    func text(_ message: Message) -> String {
        catalog.render(message, translations: translations)
    }

    func failure(_ message: Message, params: [String: JSONValue] = [:]) -> SubmissionFailure {
        SubmissionFailure(code: message.code, params: params,
                          message: catalog.render(message, params, translations: translations))
    }
}
