import SignupCore

/// `initialize`: the first request, as in LSP; says who the client is and what it can draw, and
/// is answered with what the server offers.
package struct InitializeRequest: RequestType {
    package static let method = "initialize"
    package static var unknownParameters: UnknownParameters { .skipped }
    /// `clientKey` (whose budget, a credential of sorts) is not shown.
    package static var parameterRoles: [String: ParameterRole] {
        ["processId": .number, "clientInfo": .shown, "capabilities": .shown, "locale": .identifier]
    }

    /// The client's process, watched so the server never outlives it; nil when it names none.
    package var processID: Int32?
    /// Free-form; accepted and otherwise ignored.
    package var clientInfo: [JSON.Member]?
    /// `capabilities.formDescriptions`: whether the client draws forms from their descriptions.
    package var wantsFormDescriptions: Bool
    package var locale: String?
    /// Whose check budget the connection spends, as a trusted frontend names the person.
    package var clientKey: String?

    package init(_ params: Params) throws(RPCError) {
        // LSP clients send `null` when they have no process to name.
        let processID = params.value("processId") == .null ? nil : try params.count("processId")
        if let processID, processID < 1 || processID > Int64(Int32.max) {
            throw .invalidParams(member: "params.processId", problem: "must be a process id from 1 to \(Int32.max)")
        }
        self.processID = processID.map { Int32($0) }
        clientInfo = try params.object("clientInfo")
        wantsFormDescriptions = try Self.wantsFormDescriptions(try params.object("capabilities"))
        locale = try params.string("locale")
        clientKey = try params.string("clientKey")
    }

    private static func wantsFormDescriptions(_ capabilities: [JSON.Member]?) throws(RPCError) -> Bool {
        guard let member = capabilities?.last(where: { $0.key == "formDescriptions" }) else { return false }
        guard case .bool(let flag) = member.value else {
            throw .invalidParams(
                member: "params.capabilities.formDescriptions", problem: "must be true or false, not \(member.value.typeName)")
        }
        return flag
    }

    package struct Response: ResponseType {
        package var serverName: String
        package var serverVersion: String
        package var protocolVersion: String
        package var locale: String
        /// The locale asked for when it is not served and `en` stands in.
        package var unsupportedLocale: String?
        /// Every kind the server serves, with its description when the client draws from them.
        package var forms: [FormDefinition]
        package var descriptions: [FormDescription]?
        package var locales: [String]
        package var clock: String
        package var clocks: [String]
        package var debounceMs: Int64
        /// Each limit by name, in order.
        package var limits: [(name: String, value: Int)]

        package init(
            serverName: String, serverVersion: String, protocolVersion: String, locale: String, unsupportedLocale: String?,
            forms: [FormDefinition], descriptions: [FormDescription]?, locales: [String], clock: String, clocks: [String],
            debounceMs: Int64, limits: [(name: String, value: Int)]
        ) {
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.protocolVersion = protocolVersion
            self.locale = locale
            self.unsupportedLocale = unsupportedLocale
            self.forms = forms
            self.descriptions = descriptions
            self.locales = locales
            self.clock = clock
            self.clocks = clocks
            self.debounceMs = debounceMs
            self.limits = limits
        }

        package func write(to result: inout JSONWriter) {
            result.object { body in
                body.key("serverInfo")
                body.object {
                    $0.key("name"); $0.string(serverName)
                    $0.key("version"); $0.string(serverVersion)
                }
                body.key("protocolVersion"); body.string(protocolVersion)
                body.key("locale"); body.string(locale)
                if let unsupportedLocale {
                    body.key("unsupportedLocale"); body.string(unsupportedLocale)
                }
                body.key("capabilities")
                body.object { capabilities in
                    capabilities.key("forms")
                    capabilities.array { list in
                        for (index, definition) in forms.enumerated() {
                            if let descriptions {
                                FormDescriptions.write(descriptions[index], definition: definition, to: &list)
                            } else {
                                FormDescriptions.writeSummary(of: definition, to: &list)
                            }
                        }
                    }
                    capabilities.key("locales")
                    capabilities.array { list in locales.forEach { list.string($0) } }
                    capabilities.key("clock"); capabilities.string(clock)
                    capabilities.key("clocks")
                    capabilities.array { list in clocks.forEach { list.string($0) } }
                    capabilities.key("debounceMs"); capabilities.int(debounceMs)
                    capabilities.key("limits")
                    capabilities.object { list in
                        for limit in limits {
                            list.key(escaping: limit.name); list.int(limit.value)
                        }
                    }
                }
            }
        }
    }
}

extension InitializeRequest {
    package static let documentation = MethodDocumentation(
        summary: "Server info, protocol version and capabilities.",
        params: [
            DocumentedParameter("processId", .schema(##"{"oneOf": [{"type": "integer", "minimum": 1, "maximum": 2147483647}, {"type": "null"}]}"##)),
            DocumentedParameter("clientInfo", .schema(##"{"type": "object"}"##)),
            DocumentedParameter("capabilities", .schema(##"{"type": "object", "properties": {"formDescriptions": {"type": "boolean"}}}"##)),
            DocumentedParameter("locale", .reference("Locale")),
            DocumentedParameter("clientKey", .schema(##"{"type": "string", "minLength": 1, "maxLength": 256, "description": "Whose check budget this connection spends, as a trusted frontend names the person behind it; honoured only under --trust-client-keys, otherwise ignored."}"##)),
        ],
        paramsComponent: "InitializeParams",
        result: "InitializeResult",
        errors: [.alreadyInitialized, .invalidParams, .shuttingDown],
        components: [
            SchemaComponent("FieldSummary", ##"""
                {
                  "type": "object",
                  "properties": {
                    "name": {
                      "type": "string"
                    },
                    "required": {
                      "type": "boolean"
                    },
                    "secret": {
                      "type": "boolean"
                    },
                    "remoteCheck": {
                      "$ref": "#/components/schemas/RemoteCheckKind"
                    }
                  },
                  "required": [
                    "name",
                    "required",
                    "secret",
                    "remoteCheck"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("FormSummary", ##"""
                {
                  "type": "object",
                  "properties": {
                    "kind": {
                      "type": "string"
                    },
                    "fields": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/FieldSummary"
                      }
                    }
                  },
                  "required": [
                    "kind",
                    "fields"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("Limits", ##"""
                {
                  "type": "object",
                  "properties": {
                    "maxLineBytes": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxValueLength": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxValueBytes": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxForms": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxBatch": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "maxDepth": {
                      "type": "integer",
                      "minimum": 0
                    }
                  },
                  "required": [
                    "maxLineBytes",
                    "maxValueLength",
                    "maxValueBytes",
                    "maxForms",
                    "maxBatch",
                    "maxDepth"
                  ],
                  "additionalProperties": false
                }
                """##),
            SchemaComponent("InitializeParams", ##"""
                {
                  "description": "Members not listed are ignored, as LSP clients send their own.",
                  "type": "object",
                  "properties": {
                    "processId": {
                      "oneOf": [
                        {
                          "type": "integer",
                          "minimum": 1,
                          "maximum": 2147483647
                        },
                        {
                          "type": "null"
                        }
                      ]
                    },
                    "clientInfo": {
                      "type": "object"
                    },
                    "capabilities": {
                      "type": "object",
                      "properties": {
                        "formDescriptions": {
                          "type": "boolean"
                        }
                      }
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "clientKey": {
                      "type": "string",
                      "minLength": 1,
                      "maxLength": 256,
                      "description": "Whose check budget this connection spends, as a trusted frontend names the person behind it; honoured only under --trust-client-keys, otherwise ignored."
                    }
                  },
                  "additionalProperties": true
                }
                """##),
            SchemaComponent("InitializeResult", ##"""
                {
                  "type": "object",
                  "properties": {
                    "serverInfo": {
                      "type": "object",
                      "properties": {
                        "name": {
                          "const": "signup-rpc"
                        },
                        "version": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "name",
                        "version"
                      ],
                      "additionalProperties": false
                    },
                    "protocolVersion": {
                      "const": "1.0"
                    },
                    "locale": {
                      "$ref": "#/components/schemas/Locale"
                    },
                    "unsupportedLocale": {
                      "type": "string"
                    },
                    "capabilities": {
                      "type": "object",
                      "properties": {
                        "forms": {
                          "type": "array",
                          "items": {
                            "oneOf": [
                              {
                                "$ref": "#/components/schemas/FormSummary"
                              },
                              {
                                "$ref": "#/components/schemas/FormDescription"
                              }
                            ]
                          }
                        },
                        "locales": {
                          "type": "array",
                          "items": {
                            "$ref": "#/components/schemas/Locale"
                          }
                        },
                        "clock": {
                          "enum": [
                            "real",
                            "virtual"
                          ]
                        },
                        "clocks": {
                          "type": "array",
                          "items": {
                            "enum": [
                              "real",
                              "virtual"
                            ]
                          }
                        },
                        "debounceMs": {
                          "type": "integer",
                          "minimum": 0
                        },
                        "limits": {
                          "$ref": "#/components/schemas/Limits"
                        }
                      },
                      "required": [
                        "forms",
                        "locales",
                        "clock",
                        "clocks",
                        "debounceMs",
                        "limits"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "serverInfo",
                    "protocolVersion",
                    "locale",
                    "capabilities"
                  ],
                  "additionalProperties": false
                }
                """##),
        ])
}
