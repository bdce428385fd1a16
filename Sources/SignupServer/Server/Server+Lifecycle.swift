import SignupCore
import SignupProtocol

/// `initialize`, `initialized`, `shutdown` and `exit`.
extension InitializeRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.initialize(self) }
}

extension InitializedNotification: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { NullResponse() }
}

extension ShutdownRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { server.shutdown() }
}

extension ExitNotification: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { server.exit() }
}

extension Server {
    package func initialize(_ request: InitializeRequest) throws(RPCError) -> InitializeRequest.Response {
        guard !isInitialized else { throw .alreadyInitialized }
        if let key = request.clientKey, configuration.trustsClientKeys {
            guard !key.isEmpty, key.utf8.count <= 256 else {
                throw .invalidParams(member: "params.clientKey", problem: "must be 1 to 256 bytes")
            }
            services.clientKey = "client:" + key
        }
        if let processID = request.processID { clientProcessID = processID }
        let (messages, unsupportedLocale) = Self.catalog(for: request.locale, default: defaultCatalog)
        defaultCatalog = messages
        isInitialized = true
        describesForms = request.wantsFormDescriptions
        let definitions = catalog.definitions
        return InitializeRequest.Response(
            serverName: Self.name, serverVersion: Self.version, protocolVersion: Self.protocolVersion,
            locale: messages.locale, unsupportedLocale: unsupportedLocale, forms: definitions,
            descriptions: describesForms ? definitions.map { localized($0, in: messages).formDescription } : nil,
            locales: MessageCatalog.builtIn.map(\.locale), clock: configuration.clock.rawValue,
            clocks: ClockMode.allCases.map(\.rawValue), debounceMs: configuration.debounce.milliseconds,
            limits: Limits.members.map { ($0.name, configuration.limits[keyPath: $0.value]) })
    }

    /// Stops taking work. Submissions in flight finish first: the response is written after them.
    package func shutdown() -> NullResponse {
        isShuttingDown = true
        if settleSubmissions() { isHoldingOutput = true }
        return NullResponse()
    }

    package func exit() -> NullResponse {
        exitStatus = isShuttingDown ? 0 : 1
        return NullResponse()
    }
}
