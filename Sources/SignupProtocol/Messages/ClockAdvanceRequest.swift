/// `clock.advance`: moves the virtual clock `by` some milliseconds or `to` a time, running
/// everything due (when `exclusive`, only what is due before the target).
package struct ClockAdvanceRequest: RequestType {
    package static let method = "clock.advance"
    package static var parameterRoles: [String: ParameterRole] { ["by": .number, "to": .number] }

    package enum Target: Sendable {
        case by(Int64)
        case to(Int64)
    }

    package var target: Target
    package var exclusive: Bool

    package init(_ target: Target, exclusive: Bool = false) {
        self.target = target
        self.exclusive = exclusive
    }

    package init(_ params: Params) throws(RPCError) {
        let by = try params.count("by")
        let to = try params.count("to")
        exclusive = try params.bool("exclusive") ?? false
        switch (by, to) {
        case (let by?, nil): target = .by(by)
        case (nil, let to?): target = .to(to)
        case (nil, nil): throw .invalidParams(member: "params", problem: "needs either by or to")
        case (_?, _?): throw .invalidParams(member: "params", problem: "takes by or to, not both")
        }
    }

    /// The request as a client sends it without an id, as a fixture writes it: `exclusive` only
    /// when true.
    package func writeNotification(to writer: inout JSONWriter) {
        writer.object { message in
            message.key("jsonrpc"); message.string("2.0")
            message.key("method"); message.string(Self.method)
            message.key("params")
            message.object {
                switch target {
                case .by(let by): $0.key("by"); $0.int(by)
                case .to(let to): $0.key("to"); $0.int(to)
                }
                if exclusive {
                    $0.key("exclusive"); $0.bool(true)
                }
            }
        }
    }

    package struct Response: ResponseType {
        /// The clock's time after the move.
        package var now: Int64

        package init(now: Int64) {
            self.now = now
        }

        package func write(to result: inout JSONWriter) {
            result.object { $0.key("now"); $0.int(now) }
        }
    }
}

extension ClockAdvanceRequest {
    package static let documentation = MethodDocumentation(
        summary: "Move virtual time; everything due until then happens first.",
        params: [
            DocumentedParameter("by", .schema(##"{"type": "integer", "minimum": 0, "maximum": 9007199254740991}"##)),
            DocumentedParameter("to", .reference("Time")),
            DocumentedParameter("exclusive", .schema(##"{"type": "boolean"}"##)),
        ],
        paramsComponent: "AdvanceParams",
        result: "AdvanceResult",
        errors: [.clockNotVirtual, .timeWentBackwards, .invalidParams, .shuttingDown],
        components: [
            SchemaComponent("AdvanceParams", ##"""
                {
                  "type": "object",
                  "properties": {
                    "by": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 9007199254740991
                    },
                    "to": {
                      "$ref": "#/components/schemas/Time"
                    },
                    "exclusive": {
                      "type": "boolean"
                    }
                  },
                  "additionalProperties": false,
                  "oneOf": [
                    {
                      "required": [
                        "by"
                      ],
                      "not": {
                        "required": [
                          "to"
                        ]
                      }
                    },
                    {
                      "required": [
                        "to"
                      ],
                      "not": {
                        "required": [
                          "by"
                        ]
                      }
                    }
                  ]
                }
                """##),
            SchemaComponent("AdvanceResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "now": {
                      "$ref": "#/components/schemas/Time"
                    }
                  },
                  "required": [
                    "now"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
