/// LSP's `initialized` notification, after `initialize`'s answer: accepted and ignored.
package struct InitializedNotification: RequestType {
    package typealias Response = NullResponse
    package static let method = "initialized"
    package static var unknownParameters: UnknownParameters { .skipped }

    package init(_ params: Params) throws(RPCError) {}
}

extension InitializedNotification {
    package static let documentation = MethodDocumentation(
        summary: "LSP's acknowledgement of initialize; accepted, does nothing (sent as a request, answered with null).",
        params: [],
        paramsComponent: nil,
        result: "Null",
        errors: [.invalidParams])
}
