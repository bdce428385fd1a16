/// `shutdown`: stop taking work; answered once the submissions in flight have finished.
package struct ShutdownRequest: RequestType {
    package typealias Response = NullResponse
    package static let method = "shutdown"
    package static let parameters: [String] = []

    package init(_ params: Params) throws(RPCError) {}
}
