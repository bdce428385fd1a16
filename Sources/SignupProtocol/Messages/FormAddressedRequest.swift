/// A request that names a form (the default form when it names none) and, on the virtual clock,
/// its time, and nothing more: `form.submit`, `form.snapshot`, `form.close`.
package protocol FormAddressedRequest: RequestType {
    var form: String? { get }
    var at: Int64? { get }

    init(form: String?, at: Int64?)
}

extension FormAddressedRequest {
    package static var parameterRoles: [String: ParameterRole] { ["form": .identifier, "at": .number] }

    package init(_ params: Params) throws(RPCError) {
        self.init(form: try params.string("form"), at: try params.count("at"))
    }
}
