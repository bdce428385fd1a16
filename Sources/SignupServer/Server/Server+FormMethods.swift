import SignupCore
import SignupProtocol

/// `form.open`, `form.edit`, `form.submit`, `form.snapshot` and `form.close`, and the open forms they address.
extension Server {
    func openForm(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let kind = try params.string("kind") ?? "signup"
        var values = try params.stringMap("values") ?? []
        let (messages, unsupportedLocale) = Self.catalog(for: try params.string("locale"), default: defaultCatalog)
        let describe = try params.bool("describe") ?? describesForms
        guard let definition = catalog.definition(kind) else { throw .unknownFormKind(kind, known: catalog.kinds) }
        var recordID: String?
        if let record = try params.stringMap("record") {
            (recordID, values) = try Self.split(record, into: definition, alongside: values)
        }
        for (field, value) in values {
            guard definition.index(of: field) != nil else {
                throw .unknownField(field, kind: kind, fields: definition.fields.map(\.name))
            }
            try checkLength(of: value, field: field)
        }
        try checkFormLimit()
        let id: String
        if let requested = try params.string("form") {
            guard !requested.isEmpty else { throw .invalidParams(member: "params.form", problem: "must not be empty") }
            guard forms[requested] == nil else { throw .formIDInUse(requested) }
            id = requested
        } else {
            id = nextGeneratedID()
        }
        let session = try open(
            definition, id: id, values: Dictionary(values, uniquingKeysWith: { $1 }), recordID: recordID, catalog: messages)
        let description = describe ? localized(definition, in: messages).formDescription : nil
        return { result in
            result.object {
                $0.key("form"); $0.string(session.id)
                $0.key("kind"); $0.string(definition.kind)
                $0.key("version"); $0.int(session.pipeline.version)
                if let recordID {
                    $0.key("recordId"); $0.string(recordID)
                }
                $0.key("locale"); $0.string(messages.locale)
                if let unsupportedLocale {
                    $0.key("unsupportedLocale"); $0.string(unsupportedLocale)
                }
                if let description {
                    $0.key("description")
                    FormDescriptions.write(description, definition: definition, to: &$0)
                }
            }
        }
    }

    /// A record to update: its `id`, and its other members as the opening values of the fields.
    package static func split(
        _ record: [(String, String)], into definition: FormDefinition, alongside values: [(String, String)]
    ) throws(RPCError) -> (id: String, values: [(String, String)]) {
        guard definition.submit.savesRecords else {
            throw .invalidParams(member: "params.record", problem: "is only for form kinds that save records (such as friend); '\(definition.kind)' does not")
        }
        guard values.isEmpty else {
            throw .invalidParams(member: "params.record", problem: "gives the opening values itself; send values or record, not both")
        }
        guard let id = record.first(where: { $0.0 == "id" })?.1, !id.isEmpty else {
            throw .invalidParams(member: "params.record.id", problem: "is required: the id of the record to update")
        }
        return (id, record.filter { $0.0 != "id" })
    }

    package func edit(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let field = try params.requiredString("field")
        let value = try params.requiredString("value")
        let session = try form(params)
        let outcome = try edit(session.pipeline, id: session.id, field: field, value: value)
        return { outcome.write(to: &$0) }
    }

    /// `form.edit` as read by `FormEditLine`: its members already have the right types, so what
    /// is left to check comes in the same order as above.
    package func edit(_ request: FormEditLine) throws(RPCError) -> EditOutcome {
        if let at = request.at { try advanceToMessageTime(at) }
        if let id = request.form, let outcome = try forms.withPipeline(id, processHash: request.formHash, { pipeline throws(RPCError) in
            try edit(pipeline, id: id, field: request.field, value: request.value)
        }) {
            return outcome
        }
        let session = try form(named: request.form)
        return try edit(session.pipeline, id: session.id, field: request.field, value: request.value)
    }

    package func edit(_ pipeline: FormPipeline, id: String, field: String, value: String) throws(RPCError) -> EditOutcome {
        guard let index = pipeline.index(ofField: field) else {
            let definition = pipeline.definition
            throw .unknownField(field, kind: definition.kind, fields: definition.fields.map(\.name))
        }
        try checkLength(of: value, field: field)
        let version: Int
        do throws(FormError) {
            version = try pipeline.edit(fieldAt: index, to: value, spending: matchBudget)
        } catch {
            throw .internalError(error.description)
        }
        return EditOutcome(form: id, version: version)
    }

    /// The result of `form.edit`.
    package struct EditOutcome {
        package let form: String
        package let version: Int

        package func write(to result: inout JSONWriter) {
            result.object {
                $0.key("form"); $0.string(form)
                $0.key("version"); $0.int(version)
            }
        }
    }

    package func submit(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let session = try form(params)
        var rejection: SubmitRejection?
        do throws(SubmitRejection) { try session.pipeline.submit() } catch { rejection = error }
        return { result in
            result.object {
                $0.key("form"); $0.string(session.id)
                $0.key("accepted"); $0.bool(rejection == nil)
                if let rejection {
                    $0.key("reason"); $0.string(rejection.rawValue)
                }
            }
        }
    }

    package func snapshot(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let session = try form(params)
        let snapshot = session.pipeline.snapshot
        let version = session.pipeline.version
        return { result in
            result.object { body in
                body.key("form"); body.string(session.id)
                body.key("kind"); body.string(session.pipeline.definition.kind)
                body.key("version"); body.int(version)
                body.key("fields")
                body.array { fields in
                    for update in snapshot.fields {
                        fields.object {
                            $0.key("field"); $0.string(update.field)
                            Notifications.writeResult(update.result, to: &$0)
                            $0.key("version"); $0.int(update.version)
                        }
                    }
                }
                body.key("submitEnabled"); body.bool(snapshot.submitEnabled)
                if let recordID = session.pipeline.recordID {
                    body.key("recordId"); body.string(recordID)
                }
                body.key("submission")
                body.object {
                    Notifications.writeSubmission(snapshot.submission, of: session.pipeline.definition.submit, to: &$0)
                }
            }
        }
    }

    /// `form.validate`: a whole set of values judged by a kind's local rules in one request, with
    /// the codes, params and messages a form opened with them shows; no form is opened and no
    /// backend is asked.
    func validate(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let kind = try params.string("kind") ?? "signup"
        let values = try params.stringMap("values") ?? []
        let (messages, unsupportedLocale) = Self.catalog(for: try params.string("locale"), default: defaultCatalog)
        guard let definition = catalog.definition(kind) else { throw .unknownFormKind(kind, known: catalog.kinds) }
        for (field, value) in values {
            guard definition.index(of: field) != nil else {
                throw .unknownField(field, kind: kind, fields: definition.fields.map(\.name))
            }
            try checkLength(of: value, field: field)
        }
        let form = localized(definition, in: messages)
        let verdicts = form.localResults(for: Dictionary(values, uniquingKeysWith: { $1 }), budget: matchBudget)
        return { result in
            result.object { body in
                body.key("kind"); body.string(definition.kind)
                body.key("locale"); body.string(messages.locale)
                if let unsupportedLocale {
                    body.key("unsupportedLocale"); body.string(unsupportedLocale)
                }
                body.key("valid"); body.bool(verdicts.isValid)
                body.key("fields")
                body.array { fields in
                    for (index, field) in definition.fields.enumerated() {
                        fields.object {
                            $0.key("field"); $0.string(field.name)
                            Notifications.writeResult(verdicts.fields[index], to: &$0)
                            // Only a field the form's conditions hide says so.
                            if !verdicts.shown[index] {
                                $0.key("shown"); $0.bool(false)
                            }
                        }
                    }
                }
                // Only when the whole object fails something no field shows.
                if !verdicts.issues.isEmpty {
                    body.key("issues")
                    body.array { issues in
                        for issue in verdicts.issues {
                            issues.object {
                                $0.key("code"); $0.string(issue.code)
                                $0.key("params"); $0.value(.object(issue.params))
                                $0.key("message"); $0.string(issue.message)
                            }
                        }
                    }
                }
            }
        }
    }

    func closeForm(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let id = try params.string("form") ?? Self.defaultFormID
        guard let session = forms.remove(id) else { throw .unknownForm(id) }
        formsDidChange?(id, nil)
        session.close()
        return { result in result.object { $0.key("form"); $0.string(id) } }
    }

    /// The catalog for a requested locale (the default when none is asked for), and the request
    /// itself when it is not served and `en` stands in.
    package static func catalog(for requested: String?, default current: MessageCatalog) -> (MessageCatalog, unsupported: String?) {
        guard let requested else { return (current, nil) }
        guard let match = MessageCatalog.matching(requested) else { return (.english, requested) }
        return (match, nil)
    }

    /// Bytes first: counting a value's characters costs time in its length.
    func checkLength(of value: String, field: String) throws(RPCError) {
        let limits = configuration.limits
        if value.utf8.count > limits.maxValueBytes { throw .valueTooLong(field: field, limit: limits.maxValueBytes, unit: "bytes") }
        if value.hasMoreCharacters(than: limits.maxValueLength) {
            throw .valueTooLong(field: field, limit: limits.maxValueLength, unit: "characters")
        }
    }

    /// The form a message addresses: the named one, or the default form, opened on first use.
    package func form(_ params: Params) throws(RPCError) -> FormSession {
        try form(named: try params.string("form"))
    }

    /// The default form, named or not, is opened on first use; any other must be open.
    package func form(named id: String?) throws(RPCError) -> FormSession {
        let id = id ?? Self.defaultFormID
        if let session = forms[id] { return session }
        guard id == Self.defaultFormID else { throw .unknownForm(id) }
        return try open(.signup, id: id, values: [:], catalog: defaultCatalog)
    }

    func open(
        _ definition: FormDefinition, id: String, values: [String: String], recordID: String? = nil,
        catalog messages: MessageCatalog
    ) throws(RPCError) -> FormSession {
        try checkFormLimit()
        let pipeline = FormPipeline(
            form: localized(definition, in: messages), services: services, scheduler: clock.scheduler,
            debounce: configuration.debounce, initialValues: values, recordID: recordID, budget: matchBudget)
        let session = FormSession(id: id, pipeline: pipeline)
        forms.insert(session)
        formsDidChange?(id, definition)
        session.startEvents(on: notifications)
        return session
    }

    /// The definition made ready in a locale, built on the first open of its kind and locale.
    func localized(_ definition: FormDefinition, in messages: MessageCatalog) -> LocalizedForm {
        let key = LocalizedFormKey(kind: definition.kind, locale: messages.locale)
        if let form = localizedForms[key] { return form }
        let form = LocalizedForm(definition: definition, catalog: messages)
        localizedForms[key] = form
        return form
    }

    func checkFormLimit() throws(RPCError) {
        guard forms.count < configuration.limits.maxForms else {
            throw .tooManyForms(limit: configuration.limits.maxForms)
        }
    }

    func nextGeneratedID() -> String {
        while true {
            let id = "form-\(nextFormNumber)"
            nextFormNumber += 1
            if forms[id] == nil { return id }
        }
    }
}
