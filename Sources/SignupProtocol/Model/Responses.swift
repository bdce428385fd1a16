/// Writes a request's result value.
package typealias ResultWriter = (inout JSONWriter) -> Void

/// JSON-RPC response objects.
package enum Responses {
    package static func success(id: RequestID, result: ResultWriter) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { response in
            response.key("jsonrpc"); response.string("2.0")
            response.key("id"); id.write(&response)
            response.key("result"); result(&response)
        }
        return writer.bytes
    }

    package static func failure(id: RequestID, error: RPCError) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { response in
            response.key("jsonrpc"); response.string("2.0")
            response.key("id"); id.write(&response)
            response.key("error")
            response.object { body in
                body.key("code"); body.int(error.code)
                body.key("message"); body.string(error.message)
                _ = error.writeData(&body)
            }
        }
        return writer.bytes
    }

    /// A batch's responses as one array.
    package static func batch(_ responses: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, response) in responses.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: response)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }
}
