/// LSP's `initialized` notification, after `initialize`'s answer: accepted and ignored.
package struct InitializedNotification: RequestType {
    package typealias Response = NullResponse
    package static let method = "initialized"
    package static let parameters: [String] = []
    package static var unknownParameters: UnknownParameters { .skipped }

    package init(_ params: Params) throws(RPCError) {}
}
