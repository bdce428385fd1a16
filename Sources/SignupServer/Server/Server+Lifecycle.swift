import SignupCore
import SignupProtocol

/// `initialize`, `initialized`, `shutdown` and `exit`.
extension Server {
    package func initialize(_ params: Params) throws(RPCError) -> ResultWriter {
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
        // Whose check budget this connection spends, as a trusted frontend names the person.
        if let key = try params.string("clientKey"), configuration.trustsClientKeys {
            guard !key.isEmpty, key.utf8.count <= 256 else {
                throw .invalidParams(member: "params.clientKey", problem: "must be 1 to 256 bytes")
            }
            services.clientKey = "client:" + key
        }
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
                    configuration.limits.write(to: &capabilities)
                }
            }
        }
    }

    /// The client's `capabilities.formDescriptions`: whether it draws forms from their descriptions.
    static func wantsFormDescriptions(_ capabilities: [JSON.Member]?) throws(RPCError) -> Bool {
        guard let member = capabilities?.last(where: { $0.key == "formDescriptions" }) else { return false }
        guard case .bool(let flag) = member.value else {
            throw .invalidParams(
                member: "params.capabilities.formDescriptions", problem: "must be true or false, not \(member.value.typeName)")
        }
        return flag
    }

    /// LSP's `initialized` notification (after `initialize`'s answer): accepted and ignored.
    func initialized(_ params: Params) throws(RPCError) -> ResultWriter {
        { $0.null() }
    }

    /// Stops taking work. Submissions in flight finish first: the response is written after them.
    package func shutdown(_ params: Params) throws(RPCError) -> ResultWriter {
        isShuttingDown = true
        if settleSubmissions() { isHoldingOutput = true }
        return { $0.null() }
    }

    package func exit(_ request: Request) -> ResultWriter {
        exitCode = isShuttingDown ? 0 : 1
        return { $0.null() }
    }
}
