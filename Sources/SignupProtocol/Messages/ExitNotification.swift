/// `exit`: the process ends, with 0 after `shutdown` and 1 before it. Its params are not read.
package struct ExitNotification: RequestType {
    package typealias Response = NullResponse
    package static let method = "exit"
    package static var unknownParameters: UnknownParameters { .ignored }
    package static var isServedAfterShutdown: Bool { true }

    package init(_ params: Params) throws(RPCError) {}
}

extension ExitNotification {
    package static let documentation = MethodDocumentation(
        summary: "End the process: exit code 0 after shutdown, 1 otherwise.",
        params: [],
        paramsComponent: nil,
        result: "Null",
        errors: [.invalidParams])
}
