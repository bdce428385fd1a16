import SignupCore
import SignupProtocol

/// The protocol engine: takes input lines, answers them, and sends the forms' events.
///
/// It runs on the event loop only and never touches file descriptors itself, so tests and the
/// fuzzer drive it in process with a virtual clock.
package final class Server {
    /// The clock the server runs on.
    package enum Clock {
        case virtual(VirtualTimeScheduler)
        case real(RealTimeScheduler)

        package var scheduler: any Scheduler {
            switch self {
            case .virtual(let scheduler): return scheduler
            case .real(let scheduler): return scheduler
            }
        }
    }

    package static let name = "signup-rpc"
    package static let version = "0.1.0"
    static let protocolVersion = "1.0"
    /// The form that `form.*` methods address when they name none.
    package static let defaultFormID = "default"

    package let configuration: ServerConfiguration
    package let clock: Clock
    /// The clock's virtual scheduler when the client moves time (`--clock virtual`), advanced on
    /// every line that carries `at`. Nil in real time, and when a replay of a real-clock session
    /// moves a virtual clock itself (the client was told the clock is real, and is answered so).
    let virtualScheduler: VirtualTimeScheduler?
    package let catalog: FormCatalog
    package let logger: Logger
    /// Set at start; `initialize` may name the client whose check budget it spends.
    package internal(set) var services: FormServices
    package let sink: any MessageSink
    package let notifications: NotificationChannel
    /// The open forms. Changed only moved out of the server (`changingForms`), so that the
    /// compiler checks every access statically: every keystroke reads it.
    private(set) var forms = FormTable()
    var localizedForms: [LocalizedFormKey: LocalizedForm] = [:]
    /// By kind (`submitAction(of:)`).
    var submitActions: [String: FormNotification.Submit] = [:]
    /// The pattern matching the line being handled may still do, renewed for each line (a batch
    /// is one line): no line holds the loop for long, whatever its values and the forms' patterns.
    let matchBudget = MatchBudget()
    /// Told each form id opened, with its kind's definition, and each one closed (nil): what a
    /// recording follows to judge which fields of a form hold secrets.
    package var formsDidChange: ((_ id: String, _ definition: FormDefinition?) -> Void)?
    var nextFormNumber = 1
    var isInitialized = false
    /// Whether `form.open` describes the form unless asked not to: the client's
    /// `capabilities.formDescriptions` in `initialize`.
    var describesForms = false
    /// The message locale of forms opened without one of their own.
    var defaultCatalog: MessageCatalog = .english
    var isShuttingDown = false
    /// Set once `exit` has been received: the code the process should exit with.
    package var exitCode: Int32? { exitStatus }
    /// `exitCode`'s storage, seen by this module only, so that its accesses are checked statically.
    var exitStatus: Int32?
    /// The client's process id from `initialize`, watched so the server never outlives its client.
    var clientProcessID: Int32?
    /// Output held back until submissions in flight at `shutdown` have finished (real clock).
    var heldOutput: [[UInt8]] = []
    var isHoldingOutput = false

    /// Whether a `shutdown` is waiting for submissions in flight; no new input is handled meanwhile.
    var isDraining: Bool { isHoldingOutput }

    package init(configuration: ServerConfiguration, clock: Clock, services: FormServices, sink: any MessageSink,
         catalog: FormCatalog = .builtIn) {
        self.configuration = configuration
        self.clock = clock
        if case .virtual(let scheduler) = clock, configuration.clock == .virtual {
            virtualScheduler = scheduler
        } else {
            virtualScheduler = nil
        }
        var services = services
        if services.loginLimiter == nil { services.loginLimiter = LoginRateLimiter(scheduler: clock.scheduler) }
        if services.checkBudgets == nil { services.checkBudgets = configuration.checkBudget.budgets(on: clock.scheduler) }
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
    package func closeAllForms() {
        let sessions = changingForms { forms in
            defer { forms.removeAll() }
            return forms.values
        }
        for session in sessions { session.close() }
    }

    /// Changes the open forms moved out of the server: no access to `forms` then spans a call, so
    /// none is checked at run time. A change hands back what it removes, released after.
    func changingForms<Result>(_ change: (inout FormTable) -> Result) -> Result {
        var moved = FormTable.movedOut
        swap(&moved, &forms)
        let result = change(&moved)
        swap(&moved, &forms)
        return result
    }

    // MARK: Input

    /// Handles one unit of input from the line splitter.
    package func handle(_ item: consuming InputItem) {
        #if DEBUG
        clock.scheduler.preconditionOnExecutor()
        #endif
        matchBudget.renew()
        answer(item)
    }

    /// Answers one line (without its line terminator), decoded as the connection decodes it.
    package func handle(line: UnsafeBufferPointer<UInt8>) {
        answer(MessageDecoder(maxDepth: configuration.limits.maxDepth, readsEdits: false).message(line))
    }

    private func answer(_ item: consuming InputItem) {
        switch consume item {
        case .message(let message, _): handle(decoded: message)
        case .malformed(_, let error): handle(malformed: error)
        case .edit(let edit): handle(edit)
        case .oversizeLine: handleOversizeLine()
        }
    }

    /// Answers a message the codec decoded: a request, a notification or a batch.
    private func handle(decoded message: JSON) {
        guard exitStatus == nil else { return }
        if case .array(let elements) = message {
            handleBatch(elements)
        } else if let response = handle(message) {
            respond(response)
        }
    }

    /// Answers a message that is not JSON.
    private func handle(malformed error: JSONParseError) {
        guard exitStatus == nil else { return }
        respond(Responses.failure(id: .null, error: .parseError(error)))
    }

    /// Answers a `form.edit` line already read by `FormEditLine`: what `FormEditRequest.respond`
    /// does, its params already read.
    package func handle(_ edit: FormEditLine) {
        guard exitStatus == nil else { return }
        let response = answer(id: edit.id, method: FormEditRequest.method) { () throws(RPCError) in
            try checkAcceptingWork()
            if let at = edit.at { try advanceToMessageTime(at) }
            return try self.edit(edit.request)
        }
        if let response { respond(response) }
    }

    /// Writes a response, or holds it while a shutdown waits for submissions.
    func respond(_ response: [UInt8]) {
        if isHoldingOutput {
            heldOutput.append(response)
        } else {
            sink.send(response)
        }
    }

    /// Releases the held shutdown response once no submission is in flight (or when `force`d,
    /// at the drain deadline). Returns whether the drain is over.
    @discardableResult
    package func finishDraining(force: Bool = false) -> Bool {
        guard isHoldingOutput else { return true }
        guard force || !hasSubmissionsInFlight else { return false }
        isHoldingOutput = false
        let held = heldOutput
        heldOutput = []
        held.forEach { sink.send($0) }
        return true
    }

    /// Answers a line that was longer than the limit and skipped unread.
    func handleOversizeLine() {
        respond(Responses.failure(id: .null, error: .lineTooLong(limit: configuration.limits.maxLineBytes)))
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
        if let method = Self.methods[request.method] {
            return method.respond(to: request, on: self)
        }
        return answer(id: request.id, method: request.method) { () throws(RPCError) -> NullResponse in
            // LSP's conventions: `$/` notifications may be ignored (there is never a request
            // still pending to cancel: each is answered before the next is read), `$/` requests
            // are unknown.
            if request.method.hasPrefix("$/") {
                guard request.isNotification else { throw .methodNotFound(request.method) }
                return NullResponse()
            }
            try checkAcceptingWork()
            throw .methodNotFound(request.method)
        }
    }

    /// Runs a method and returns its response, or nil for a notification (whose failure is
    /// logged). Generic over the result, so a keystroke's answer allocates no closure, which
    /// matters when it is a notification and nothing is written.
    func answer<Response: ResponseType>(id: RequestID?, method: @autoclosure () -> String, _ run: () throws(RPCError) -> Response) -> [UInt8]? {
        do throws(RPCError) {
            let response = try run()
            guard let id else { return nil }
            return Responses.success(id: id) { response.write(to: &$0) }
        } catch {
            guard let id else {
                logger.warning("notification \(method()) failed: \(error.message)")
                return nil
            }
            return Responses.failure(id: id, error: error)
        }
    }

    // MARK: Dispatch

    /// Every registered method by name, with its handler.
    private static let methods: [String: any ServerMethod.Type] = Dictionary(
        uniqueKeysWithValues: Messages.requests.compactMap { type in (type as? any ServerMethod.Type).map { (type.method, $0) } })

    /// The registered methods the server has no handler for: none (a test holds it so).
    package static var unhandledMethods: [String] {
        Messages.requests.map { $0.method }.filter { methods[$0] == nil }
    }

    func checkAcceptingWork() throws(RPCError) {
        if isShuttingDown { throw .shuttingDown }
    }
}

/// Names a form kind in one locale: forms opened from the same pair share their `LocalizedForm`.
struct LocalizedFormKey: Hashable {
    let kind: String
    let locale: String
}
