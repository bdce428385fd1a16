import SignupCore

/// The protocol engine: takes input lines, answers them, and sends the forms' events.
///
/// It runs on the event loop only and never touches file descriptors itself, so tests and the
/// fuzzer drive it in process with a virtual clock.
final class Server {
    /// The clock the server runs on.
    enum Clock {
        case virtual(VirtualTimeScheduler)
        case real(RealTimeScheduler)

        var scheduler: any Scheduler {
            switch self {
            case .virtual(let scheduler): return scheduler
            case .real(let scheduler): return scheduler
            }
        }
    }

    static let name = "signup-rpc"
    static let version = "0.1.0"
    static let protocolVersion = "1.0"
    /// The form that `form.*` methods address when they name none.
    static let defaultFormID = "default"

    let configuration: ServerConfiguration
    let clock: Clock
    /// The clock's virtual scheduler, which `clock` holds for the server's life: advanced on every
    /// line that carries `at`, through a guaranteed reference that counts nothing, where taking it
    /// out of `clock` retained and released it around each advance.
    private let virtualScheduler: Unmanaged<VirtualTimeScheduler>?
    let catalog: FormCatalog
    let logger: Logger
    private let services: FormServices
    private let sink: any MessageSink
    private let notifications: NotificationChannel
    // Unchecked: every access is one call into the table that calls out to nothing (sessions are
    // closed after they are taken out), so none overlaps another; checking cost one per keystroke.
    @exclusivity(unchecked) private var forms = FormTable()
    private var localizedForms: [LocalizedFormKey: LocalizedForm] = [:]
    private var nextFormNumber = 1
    private var isInitialized = false
    /// Whether `form.open` describes the form unless asked not to: the client's
    /// `capabilities.formDescriptions` in `initialize`.
    private var describesForms = false
    /// The message locale of forms opened without one of their own.
    private var defaultCatalog: MessageCatalog = .english
    private(set) var isShuttingDown = false
    /// Set once `exit` has been received: the code the process should exit with.
    private(set) var exitCode: Int32?
    /// The client's process id from `initialize`, watched so the server never outlives its client.
    private(set) var clientProcessID: Int32?
    /// Output held back until submissions in flight at `shutdown` have finished (real clock).
    private var heldOutput: [[UInt8]] = []
    private var isHoldingOutput = false

    /// Whether a `shutdown` is waiting for submissions in flight; no new input is handled meanwhile.
    var isDraining: Bool { isHoldingOutput }

    init(configuration: ServerConfiguration, clock: Clock, services: FormServices, sink: any MessageSink,
         catalog: FormCatalog = .builtIn) {
        self.configuration = configuration
        self.clock = clock
        if case .virtual(let scheduler) = clock { virtualScheduler = .passUnretained(scheduler) } else { virtualScheduler = nil }
        var services = services
        if services.loginLimiter == nil { services.loginLimiter = LoginRateLimiter(scheduler: clock.scheduler) }
        self.services = services
        self.sink = sink
        let scheduler = clock.scheduler
        notifications = NotificationChannel(sink: sink) { scheduler.now.milliseconds }
        self.catalog = catalog
        logger = Logger(level: configuration.logLevel)
    }

    /// Whether any open form has a submission in flight.
    var hasSubmissionsInFlight: Bool { forms.values.contains { $0.pipeline.isSubmitting } }

    /// Whether any open form has a submission in flight or a field still being checked.
    var hasWorkInFlight: Bool {
        forms.values.contains { session in
            session.pipeline.isSubmitting || session.pipeline.isValidating
        }
    }

    /// Closes every open form, releasing its subscriptions; for a server that is being discarded.
    func closeAllForms() {
        let sessions = forms.values
        forms.removeAll()
        for session in sessions { session.close() }
    }

    // MARK: Input

    /// Handles one unit of input from the line splitter.
    func handle(_ item: consuming InputItem) {
        switch consume item {
        case .line(let bytes): bytes.withUnsafeBufferPointer { handle(line: $0) }
        case .edit(let edit): handle(edit)
        case .oversizeLine: handleOversizeLine()
        }
    }

    /// Answers one line (without its line terminator) through the full parser. Plain `form.edit`
    /// lines come as `InputItem.edit`, read where the line was cut (`InputItem.line(_:editsMaxDepth:)`).
    func handle(line: UnsafeBufferPointer<UInt8>) {
        guard exitCode == nil else { return }
        let message: JSON
        do throws(JSONParseError) {
            message = try JSONParser.parse(line, maxDepth: configuration.limits.maxDepth)
        } catch {
            respond(Responses.failure(id: .null, error: .parseError(error)))
            return
        }
        if case .array(let elements) = message {
            handleBatch(elements)
        } else if let response = handle(message) {
            respond(response)
        }
    }

    /// Answers a `form.edit` line already read by `FormEditLine`.
    func handle(_ edit: FormEditLine) {
        guard exitCode == nil else { return }
        let response = answer(id: edit.id, method: "form.edit", { () throws(RPCError) in
            try checkAcceptingWork()
            return try self.edit(edit)
        }, writing: { $0.write(to: &$1) })
        if let response { respond(response) }
    }

    /// Writes a response, or holds it while a shutdown waits for submissions.
    private func respond(_ response: [UInt8]) {
        if isHoldingOutput {
            heldOutput.append(response)
        } else {
            sink.send(response)
        }
    }

    /// Releases the held shutdown response once no submission is in flight (or when `force`d,
    /// at the drain deadline). Returns whether the drain is over.
    @discardableResult
    func finishDraining(force: Bool = false) -> Bool {
        guard isHoldingOutput else { return true }
        guard force || !hasSubmissionsInFlight else { return false }
        isHoldingOutput = false
        let held = heldOutput
        heldOutput = []
        held.forEach { sink.send($0) }
        return true
    }

    /// Lets every submission in flight finish: in virtual time by running the clock until they
    /// have; in real time the caller waits (see `finishDraining`). Returns whether any remain
    /// that the caller should wait for: in virtual time none, as what is left is due past the
    /// horizon and never finishes.
    func settleSubmissions() -> Bool {
        guard case .virtual(let scheduler) = clock else { return hasSubmissionsInFlight }
        while hasSubmissionsInFlight, let next = scheduler.nextDueTime {
            scheduler.advance(to: next)
        }
        return false
    }

    /// Answers a line that was longer than the limit and skipped unread.
    func handleOversizeLine() {
        respond(Responses.failure(id: .null, error: .lineTooLong(limit: configuration.limits.maxLineBytes)))
    }

    /// At the end of input in virtual time, runs the clock until nothing is pending.
    func runToIdle() {
        if case .virtual(let scheduler) = clock { scheduler.run() }
    }

    private func handleBatch(_ elements: [JSON]) {
        if elements.isEmpty {
            respond(Responses.failure(id: .null, error: .invalidRequest("an empty batch holds no messages")))
            return
        }
        if elements.count > configuration.limits.maxBatch {
            respond(Responses.failure(id: .null, error: .batchTooLarge(limit: configuration.limits.maxBatch)))
            return
        }
        let responses = elements.compactMap { handle($0) }
        if !responses.isEmpty { respond(Responses.batch(responses)) }
    }

    /// Handles one message; returns its response, or nil for a notification.
    private func handle(_ message: JSON) -> [UInt8]? {
        let request: Request
        switch Request.validate(message) {
        case .failure(let invalid):
            return Responses.failure(id: invalid.id, error: invalid.error)
        case .success(let valid):
            request = valid
        }
        return answer(id: request.id, method: request.method) { () throws(RPCError) in try dispatch(request) }
    }

    /// Runs a method and returns its response, or nil for a notification (whose failure is logged).
    private func answer(id: RequestID?, method: String, _ run: () throws(RPCError) -> ResultWriter) -> [UInt8]? {
        answer(id: id, method: method, run, writing: { $0(&$1) })
    }

    /// As `answer(id:method:_:)`, for a method whose outcome is a value: a keystroke's answer
    /// then allocates no closure, which matters when it is a notification and nothing is written.
    private func answer<Outcome>(
        id: RequestID?, method: String, _ run: () throws(RPCError) -> Outcome,
        writing write: (Outcome, inout JSONWriter) -> Void
    ) -> [UInt8]? {
        do throws(RPCError) {
            let outcome = try run()
            guard let id else { return nil }
            return Responses.success(id: id) { write(outcome, &$0) }
        } catch {
            guard let id else {
                logger.warning("notification \(method) failed: \(error.message)")
                return nil
            }
            return Responses.failure(id: id, error: error)
        }
    }

    // MARK: Dispatch

    /// The parameters each method takes.
    private enum Parameters {
        static let initialize: [String] = ["processId", "clientInfo", "capabilities", "locale"]
        static let initialized: [String] = []
        static let shutdown: [String] = []
        static let open: [String] = ["kind", "form", "values", "record", "locale", "describe", "at"]
        static let edit: [String] = ["form", "field", "value", "at"]
        static let submit: [String] = ["form", "at"]
        static let snapshot: [String] = ["form", "at"]
        static let close: [String] = ["form", "at"]
        static let advanceClock: [String] = ["by", "to"]
    }

    private func dispatch(_ request: Request) throws(RPCError) -> ResultWriter {
        if request.method == "exit" { return exit(request) }
        // LSP's conventions: `$/` notifications may be ignored (there is never a request still
        // pending to cancel: each is answered before the next is read), `$/` requests are unknown.
        if request.method.hasPrefix("$/") {
            guard request.isNotification else { throw .methodNotFound(request.method) }
            return { $0.null() }
        }
        try checkAcceptingWork()
        switch request.method {
        case "initialize": return try initialize(Params(request.params, allowed: Parameters.initialize, ignoringOthers: true))
        case "initialized": return try initialized(Params(request.params, allowed: Parameters.initialized, ignoringOthers: true))
        case "shutdown": return try shutdown(Params(request.params, allowed: Parameters.shutdown))
        case "form.open": return try openForm(Params(request.params, allowed: Parameters.open))
        case "form.edit": return try edit(Params(request.params, allowed: Parameters.edit))
        case "form.submit": return try submit(Params(request.params, allowed: Parameters.submit))
        case "form.snapshot": return try snapshot(Params(request.params, allowed: Parameters.snapshot))
        case "form.close": return try closeForm(Params(request.params, allowed: Parameters.close))
        case "clock.advance": return try advanceClock(Params(request.params, allowed: Parameters.advanceClock))
        default: throw .methodNotFound(request.method)
        }
    }

    private func checkAcceptingWork() throws(RPCError) {
        if isShuttingDown { throw .shuttingDown }
    }

    private func initialize(_ params: Params) throws(RPCError) -> ResultWriter {
        guard !isInitialized else { throw .alreadyInitialized }
        // LSP clients send `null` when they have no process to name.
        let processID = params.value("processId") == .null ? nil : try params.count("processId")
        if let processID, processID < 1 || processID > Int64(Int32.max) {
            throw .invalidParams(member: "params.processId", problem: "must be a process id from 1 to \(Int32.max)")
        }
        // Free-form, but objects: accepted and otherwise ignored, but for the one capability
        // defined so far, `formDescriptions`.
        _ = try params.object("clientInfo")
        let describesForms = try Self.wantsFormDescriptions(try params.object("capabilities"))
        let requestedLocale = try params.string("locale")
        if let processID { clientProcessID = Int32(processID) }
        let (messages, unsupportedLocale) = Self.catalog(for: requestedLocale, default: defaultCatalog)
        defaultCatalog = messages
        let locale = messages.locale
        isInitialized = true
        self.describesForms = describesForms
        let configuration = self.configuration
        let catalog = self.catalog
        let descriptions = describesForms ? catalog.definitions.map { localized($0, in: messages).formDescription } : nil
        return { result in
            result.object { body in
                body.key("serverInfo")
                body.object {
                    $0.key("name"); $0.string(Self.name)
                    $0.key("version"); $0.string(Self.version)
                }
                body.key("protocolVersion"); body.string(Self.protocolVersion)
                body.key("locale"); body.string(locale)
                if let unsupportedLocale {
                    body.key("unsupportedLocale"); body.string(unsupportedLocale)
                }
                body.key("capabilities")
                body.object { capabilities in
                    capabilities.key("forms")
                    capabilities.array { list in
                        for (index, definition) in catalog.definitions.enumerated() {
                            if let descriptions {
                                FormDescriptions.write(descriptions[index], definition: definition, to: &list)
                            } else {
                                FormDescriptions.writeSummary(of: definition, to: &list)
                            }
                        }
                    }
                    capabilities.key("locales")
                    capabilities.array { list in MessageCatalog.builtIn.forEach { list.string($0.locale) } }
                    capabilities.key("clock"); capabilities.string(configuration.clock.rawValue)
                    capabilities.key("clocks")
                    capabilities.array { list in ClockMode.allCases.forEach { list.string($0.rawValue) } }
                    capabilities.key("debounceMs"); capabilities.int(configuration.debounce.milliseconds)
                    capabilities.key("limits")
                    capabilities.object { limits in
                        limits.key("maxLineBytes"); limits.int(configuration.limits.maxLineBytes)
                        limits.key("maxValueLength"); limits.int(configuration.limits.maxValueLength)
                        limits.key("maxForms"); limits.int(configuration.limits.maxForms)
                        limits.key("maxBatch"); limits.int(configuration.limits.maxBatch)
                        limits.key("maxDepth"); limits.int(configuration.limits.maxDepth)
                    }
                }
            }
        }
    }

    /// The client's `capabilities.formDescriptions`: whether it draws forms from their descriptions.
    private static func wantsFormDescriptions(_ capabilities: [JSON.Member]?) throws(RPCError) -> Bool {
        guard let member = capabilities?.last(where: { $0.key == "formDescriptions" }) else { return false }
        guard case .bool(let flag) = member.value else {
            throw .invalidParams(
                member: "params.capabilities.formDescriptions", problem: "must be true or false, not \(member.value.typeName)")
        }
        return flag
    }

    /// LSP's `initialized` notification (after `initialize`'s answer): accepted and ignored.
    private func initialized(_ params: Params) throws(RPCError) -> ResultWriter {
        { $0.null() }
    }

    /// Stops taking work. Submissions in flight finish first: the response is written after them.
    private func shutdown(_ params: Params) throws(RPCError) -> ResultWriter {
        isShuttingDown = true
        if settleSubmissions() { isHoldingOutput = true }
        return { $0.null() }
    }

    private func exit(_ request: Request) -> ResultWriter {
        exitCode = isShuttingDown ? 0 : 1
        return { $0.null() }
    }

    private func openForm(_ params: Params) throws(RPCError) -> ResultWriter {
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
    private static func split(
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

    private func edit(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let field = try params.requiredString("field")
        let value = try params.requiredString("value")
        let session = try form(params)
        let outcome = try edit(session.pipeline, id: session.id, field: field, value: value)
        return { outcome.write(to: &$0) }
    }

    /// `form.edit` as read by `FormEditLine`: its members already have the right types, so what
    /// is left to check comes in the same order as above.
    private func edit(_ request: FormEditLine) throws(RPCError) -> EditOutcome {
        if let at = request.at { try advanceToMessageTime(at) }
        guard let id = request.form, let form = forms.unretainedPipeline(id, processHash: request.formHash) else {
            let session = try form(named: request.form)
            return try edit(session.pipeline, id: session.id, field: request.field, value: request.value)
        }
        // Not retained, which on every keystroke was an atomic count on the form's first line:
        // the server handles one line at a time, never from within another, so the form stays
        // open, and in the table, until the edit returns.
        return try form._withUnsafeGuaranteedRef { pipeline in
            Result { () throws(RPCError) in try edit(pipeline, id: id, field: request.field, value: request.value) }
        }.get()
    }

    private func edit(_ pipeline: FormPipeline, id: String, field: String, value: String) throws(RPCError) -> EditOutcome {
        guard let index = pipeline.index(ofField: field) else {
            let definition = pipeline.definition
            throw .unknownField(field, kind: definition.kind, fields: definition.fields.map(\.name))
        }
        try checkLength(of: value, field: field)
        let version: Int
        do throws(FormError) {
            version = try pipeline.edit(fieldAt: index, to: value)
        } catch {
            throw .internalError(error.description)
        }
        return EditOutcome(form: id, version: version)
    }

    /// The result of `form.edit`.
    private struct EditOutcome {
        let form: String
        let version: Int

        func write(to result: inout JSONWriter) {
            result.object {
                $0.key("form"); $0.string(form)
                $0.key("version"); $0.int(version)
            }
        }
    }

    private func submit(_ params: Params) throws(RPCError) -> ResultWriter {
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

    private func snapshot(_ params: Params) throws(RPCError) -> ResultWriter {
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

    private func closeForm(_ params: Params) throws(RPCError) -> ResultWriter {
        try advanceToMessageTime(params)
        let id = try params.string("form") ?? Self.defaultFormID
        guard let session = forms.remove(id) else { throw .unknownForm(id) }
        session.close()
        return { result in result.object { $0.key("form"); $0.string(id) } }
    }

    private func advanceClock(_ params: Params) throws(RPCError) -> ResultWriter {
        guard case .virtual(let scheduler) = clock else { throw .clockNotVirtual(method: "clock.advance") }
        let by = try params.count("by")
        let to = try params.count("to")
        switch (by, to) {
        case (let by?, nil):
            let now = scheduler.now.milliseconds
            let (target, overflow) = now.addingReportingOverflow(by)
            guard !overflow, target <= TimePoint.horizon.milliseconds else {
                throw .invalidParams(
                    member: "params.by",
                    problem: "would move the clock past \(TimePoint.horizon.milliseconds) ms, the latest time (it is \(now) ms)")
            }
            try advanceVirtualTime(to: target, member: "params.by", for: "clock.advance")
        case (nil, let to?): try advanceVirtualTime(to: to, member: "params.to", for: "clock.advance")
        case (nil, nil): throw .invalidParams(member: "params", problem: "needs either by or to")
        case (_?, _?): throw .invalidParams(member: "params", problem: "takes by or to, not both")
        }
        let now = scheduler.now.milliseconds
        return { result in result.object { $0.key("now"); $0.int(now) } }
    }

    // MARK: Helpers

    /// Moves virtual time to the message's `at`, running everything due first.
    private func advanceToMessageTime(_ params: Params) throws(RPCError) {
        guard let at = try params.count("at") else { return }
        try advanceToMessageTime(at)
    }

    private func advanceToMessageTime(_ at: Int64) throws(RPCError) {
        try advanceVirtualTime(to: at, member: "params.at", for: "at")
    }

    /// Moves virtual time forward to `time`, running everything due first. `member` names the
    /// param that asked, for the error past the horizon; `method`, for the error when the clock is real.
    private func advanceVirtualTime(to time: Int64, member: String, for method: String) throws(RPCError) {
        guard let virtualScheduler else { throw .clockNotVirtual(method: method) }
        let now = virtualScheduler._withUnsafeGuaranteedRef { $0.now.milliseconds }
        guard time >= now else { throw .timeWentBackwards(now: now, requested: time) }
        guard time <= TimePoint.horizon.milliseconds else {
            throw .invalidParams(
                member: member, problem: "must be at most \(TimePoint.horizon.milliseconds) ms, the latest time, not \(time)")
        }
        virtualScheduler._withUnsafeGuaranteedRef { $0.advance(to: TimePoint(milliseconds: time)) }
    }

    /// The catalog for a requested locale (the default when none is asked for), and the request
    /// itself when it is not served and `en` stands in.
    private static func catalog(for requested: String?, default current: MessageCatalog) -> (MessageCatalog, unsupported: String?) {
        guard let requested else { return (current, nil) }
        guard let match = MessageCatalog.matching(requested) else { return (.english, requested) }
        return (match, nil)
    }

    private func checkLength(of value: String, field: String) throws(RPCError) {
        let limit = configuration.limits.maxValueLength
        if value.utf8.count > limit, value.count > limit { throw .valueTooLong(field: field, limit: limit) }
    }

    /// The form a message addresses: the named one, or the default form, opened on first use.
    private func form(_ params: Params) throws(RPCError) -> FormSession {
        try form(named: try params.string("form"))
    }

    /// The default form, named or not, is opened on first use; any other must be open.
    private func form(named id: String?) throws(RPCError) -> FormSession {
        let id = id ?? Self.defaultFormID
        if let session = forms[id] { return session }
        guard id == Self.defaultFormID else { throw .unknownForm(id) }
        return try open(.signup, id: id, values: [:], catalog: defaultCatalog)
    }

    private func open(
        _ definition: FormDefinition, id: String, values: [String: String], recordID: String? = nil,
        catalog messages: MessageCatalog
    ) throws(RPCError) -> FormSession {
        try checkFormLimit()
        let pipeline = FormPipeline(
            form: localized(definition, in: messages), services: services, scheduler: clock.scheduler,
            debounce: configuration.debounce, initialValues: values, recordID: recordID)
        let session = FormSession(id: id, pipeline: pipeline)
        forms.insert(session)
        session.startEvents(on: notifications)
        return session
    }

    /// The definition made ready in a locale, built on the first open of its kind and locale.
    private func localized(_ definition: FormDefinition, in messages: MessageCatalog) -> LocalizedForm {
        let key = LocalizedFormKey(kind: definition.kind, locale: messages.locale)
        if let form = localizedForms[key] { return form }
        let form = LocalizedForm(definition: definition, catalog: messages)
        localizedForms[key] = form
        return form
    }

    private func checkFormLimit() throws(RPCError) {
        guard forms.count < configuration.limits.maxForms else {
            throw .tooManyForms(limit: configuration.limits.maxForms)
        }
    }

    private func nextGeneratedID() -> String {
        while true {
            let id = "form-\(nextFormNumber)"
            nextFormNumber += 1
            if forms[id] == nil { return id }
        }
    }
}

/// Names a form kind in one locale: forms opened from the same pair share their `LocalizedForm`.
private struct LocalizedFormKey: Hashable {
    let kind: String
    let locale: String
}
