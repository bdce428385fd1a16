/// `shutdown`: stop taking work; answered once the submissions in flight have finished.
package struct ShutdownRequest: RequestType {
    package typealias Response = NullResponse
    package static let method = "shutdown"

    package init(_ params: Params) throws(RPCError) {}
}

extension ShutdownRequest {
    package static let documentation = MethodDocumentation(
        summary: "Stop accepting work; submissions in flight finish first.",
        params: [],
        paramsComponent: nil,
        result: "Null",
        errors: [.invalidParams])
}
