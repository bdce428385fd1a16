import SignupCore
import SignupProtocol

/// `form.open`, `form.edit`, `form.submit`, `form.snapshot`, `form.validate` and `form.close`,
/// and the open forms they address.
extension FormOpenRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.open(self) }
}

extension FormEditRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.edit(self) }
}

extension FormSubmitRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.submit(self) }
}

extension FormSnapshotRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.snapshot(self) }
}

extension FormValidateRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.validate(self) }
}

extension FormCloseRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.close(self) }
}

extension Server {
    func open(_ request: FormOpenRequest) throws(RPCError) -> FormOpenRequest.Response {
        let kind = request.kind
        var values = request.values
        let (messages, unsupportedLocale) = Self.catalog(for: request.locale, default: defaultCatalog)
        let describe = request.describe ?? describesForms
        guard let definition = catalog.definition(kind) else { throw .unknownFormKind(kind, known: catalog.kinds) }
        var recordID: String?
        if let record = request.record {
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
        if let requested = request.form {
            guard !requested.isEmpty else { throw .invalidParams(member: "params.form", problem: "must not be empty") }
            guard forms[requested] == nil else { throw .formIDInUse(requested) }
            id = requested
        } else {
            id = nextGeneratedID()
        }
        let session = try open(
            definition, id: id, values: Dictionary(values, uniquingKeysWith: { $1 }), recordID: recordID, catalog: messages)
        return FormOpenRequest.Response(
            form: session.id, kind: definition.kind, version: session.pipeline.version, recordID: recordID,
            locale: messages.locale, unsupportedLocale: unsupportedLocale,
            description: describe ? (localized(definition, in: messages).formDescription, definition) : nil)
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

    /// `form.edit`, however it was read; the clock has been moved to its `at`.
    package func edit(_ request: FormEditRequest) throws(RPCError) -> FormEditRequest.Response {
        if let id = request.form, let pipeline = forms.pipeline(id, processHash: request.formHash) {
            return try edit(pipeline, id: id, field: request.field, value: request.value)
        }
        let session = try form(named: request.form)
        return try edit(session.pipeline, id: session.id, field: request.field, value: request.value)
    }

    package func edit(_ pipeline: FormPipeline, id: String, field: String, value: String) throws(RPCError) -> FormEditRequest.Response {
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
        return FormEditRequest.Response(form: id, version: version)
    }

    package func submit(_ request: FormSubmitRequest) throws(RPCError) -> FormSubmitRequest.Response {
        let session = try form(named: request.form)
        var rejection: SubmitRejection?
        do throws(SubmitRejection) { try session.pipeline.submit() } catch { rejection = error }
        return FormSubmitRequest.Response(form: session.id, rejection: rejection)
    }

    package func snapshot(_ request: FormSnapshotRequest) throws(RPCError) -> FormSnapshotRequest.Response {
        let session = try form(named: request.form)
        let pipeline = session.pipeline
        return FormSnapshotRequest.Response(
            form: session.id, kind: pipeline.definition.kind, version: pipeline.version, snapshot: pipeline.snapshot,
            recordID: pipeline.recordID, action: pipeline.definition.submit)
    }

    /// `form.validate`: a whole set of values judged by a kind's local rules in one request, with
    /// the codes, params and messages a form opened with them shows; no form is opened and no
    /// backend is asked.
    func validate(_ request: FormValidateRequest) throws(RPCError) -> FormValidateRequest.Response {
        let kind = request.kind
        let (messages, unsupportedLocale) = Self.catalog(for: request.locale, default: defaultCatalog)
        guard let definition = catalog.definition(kind) else { throw .unknownFormKind(kind, known: catalog.kinds) }
        for (field, value) in request.values {
            guard definition.index(of: field) != nil else {
                throw .unknownField(field, kind: kind, fields: definition.fields.map(\.name))
            }
            try checkLength(of: value, field: field)
        }
        let form = localized(definition, in: messages)
        let verdicts = form.localResults(for: Dictionary(request.values, uniquingKeysWith: { $1 }), budget: matchBudget)
        return FormValidateRequest.Response(
            kind: definition.kind, locale: messages.locale, unsupportedLocale: unsupportedLocale, fields: definition.fields,
            verdicts: verdicts)
    }

    func close(_ request: FormCloseRequest) throws(RPCError) -> FormCloseRequest.Response {
        let id = request.form ?? Self.defaultFormID
        guard let session = changingForms({ $0.remove(id) }) else { throw .unknownForm(id) }
        formsDidChange?(id, nil)
        session.close()
        return FormCloseRequest.Response(form: id)
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
        changingForms { $0.insert(session) }
        formsDidChange?(id, definition)
        session.startEvents(on: notifications, submit: submitAction(of: definition))
        return session
    }

    /// What a kind's notifications name as its action: one object for every form of the kind,
    /// not a copy of the action in each (it was a third of an open form's memory).
    func submitAction(of definition: FormDefinition) -> FormNotification.Submit {
        if let known = submitActions[definition.kind] { return known }
        let submit = FormNotification.Submit(definition.submit)
        submitActions[definition.kind] = submit
        return submit
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
