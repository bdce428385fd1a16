import SignupProtocol

extension Server {
    /// Answers a request given as its type, as a line of it is answered once read: refused after
    /// `shutdown` (but `exit`), the virtual clock moved to its `at`, then handled. For tests and
    /// in-process callers that hold values, not bytes.
    func answer<Method: ServerMethod>(_ request: Method) throws(RPCError) -> Method.Response {
        if !Method.isServedAfterShutdown { try checkAcceptingWork() }
        if let at = request.at { try advanceToMessageTime(at) }
        return try request.answer(on: self)
    }
}
