/// `exit`: the process ends, with 0 after `shutdown` and 1 before it. Its params are not read.
package struct ExitNotification: RequestType {
    package typealias Response = NullResponse
    package static let method = "exit"
    package static let parameters: [String] = []
    package static var unknownParameters: UnknownParameters { .ignored }
    package static var isServedAfterShutdown: Bool { true }

    package init(_ params: Params) throws(RPCError) {}
}
