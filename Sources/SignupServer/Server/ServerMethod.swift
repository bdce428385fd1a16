import SignupProtocol

/// A method the server answers: the handler from its request to its result. Each registered
/// request type conforms beside its handler.
protocol ServerMethod: RequestType {
    /// The message's time on the virtual clock (`at`); nil for a method without one.
    var at: Int64? { get }

    func answer(on server: Server) throws(RPCError) -> Response
}

extension ServerMethod {
    var at: Int64? { nil }

    /// Answers `request`, of this method: refused once `shutdown` has been received (but for
    /// `exit`), its params read, the virtual clock moved to its `at` (before the rest is read,
    /// so what was due comes first whatever else the params hold), then handled.
    static func respond(to request: Request, on server: Server) -> [UInt8]? {
        server.answer(id: request.id, method: method) { () throws(RPCError) -> Response in
            if !isServedAfterShutdown { try server.checkAcceptingWork() }
            let params = try params(request.params)
            try server.advanceToMessageTime(params)
            return try Self(params).answer(on: server)
        }
    }
}
