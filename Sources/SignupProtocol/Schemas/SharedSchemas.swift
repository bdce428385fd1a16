/// The OpenRPC document's components that more than one message uses (and `Error`, which every
/// error response is); a component one message alone uses is declared with that message.
extension SchemaDocuments {
    static let sharedComponents: [SchemaComponent] = [
        SchemaComponent("FormId", ##"""
            {
              "type": "string",
              "minLength": 1,
              "description": "A form's id; `default` names the implicit signup form."
            }
            """##),
        SchemaComponent("Time", ##"""
            {
              "type": "integer",
              "minimum": 0,
              "maximum": 9007199254740991,
              "description": "Milliseconds on the server's clock; at most the latest time, 2^53 - 1."
            }
            """##),
        SchemaComponent("Version", ##"""
            {
              "type": "integer",
              "minimum": 0,
              "description": "A form's edit version."
            }
            """##),
        SchemaComponent("StringMap", ##"""
            {
              "type": "object",
              "additionalProperties": {
                "type": "string"
              }
            }
            """##),
        SchemaComponent("MessageParams", ##"""
            {
              "type": "object",
              "description": "Values a message is built from, such as {\"min\":5}; on a checklist field's failure also `unmet`, the codes of every rule failing now.",
              "additionalProperties": {
                "type": [
                  "string",
                  "number",
                  "boolean",
                  "null",
                  "array"
                ],
                "items": {
                  "type": "string"
                }
              }
            }
            """##),
        SchemaComponent("Locale", ##"""
            {
              "type": "string",
              "minLength": 1
            }
            """##),
        SchemaComponent("FieldState", ##"""
            {
              "enum": [
                "empty",
                "validating",
                "ok",
                "failed"
              ]
            }
            """##),
        SchemaComponent("RemoteCheckKind", ##"""
            {
              "enum": [
                "usernameAvailability",
                "http",
                "unique",
                "breachedPassword",
                null
              ],
              "description": "The kind of the field's first remote check; null for none."
            }
            """##),
        SchemaComponent("InputKind", ##"""
            {
              "type": "string",
              "description": "text, name, username, password, newPassword, email, phone or number; clients draw text for a kind they do not know.",
              "minLength": 1
            }
            """##),
        SchemaComponent("DescribedField", ##"""
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
                },
                "label": {
                  "type": "string"
                },
                "placeholder": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "input": {
                  "$ref": "#/components/schemas/InputKind"
                },
                "maxLength": {
                  "type": [
                    "integer",
                    "null"
                  ],
                  "minimum": 0
                },
                "remoteChecks": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/RemoteCheck"
                  }
                },
                "requirements": {
                  "type": "array",
                  "description": "Only on a checklist field: what each rule asks for, in order; a requirement is met unless its code is in the field result's params.unmet.",
                  "items": {
                    "$ref": "#/components/schemas/Requirement"
                  },
                  "minItems": 1,
                  "maxItems": 8
                },
                "help": {
                  "type": "string",
                  "description": "Only on a field that has one (a JSON Schema form's description): a longer explanation to show under the field."
                },
                "default": {
                  "type": "string",
                  "description": "Only on a field that has one (a JSON Schema form's default): the value the form opens with when none is given."
                },
                "conditional": {
                  "const": true,
                  "description": "Only on a field whose presence the form's conditions decide: it is shown, hidden or required as form.fieldPresenceChanged says."
                },
                "choices": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  },
                  "description": "Only on a field that takes nothing else (a JSON Schema form's enum, const or boolean): the values to offer."
                }
              },
              "required": [
                "name",
                "required",
                "secret",
                "remoteCheck",
                "label",
                "placeholder",
                "input",
                "maxLength",
                "remoteChecks"
              ],
              "additionalProperties": false
            }
            """##),
        SchemaComponent("SubmissionStateDescription", ##"""
            {
              "type": "object",
              "properties": {
                "state": {
                  "type": "string"
                },
                "meaning": {
                  "enum": [
                    "idle",
                    "submitting",
                    "succeeded",
                    "failed"
                  ]
                },
                "message": {
                  "type": "string"
                }
              },
              "required": [
                "state",
                "meaning",
                "message"
              ],
              "additionalProperties": false
            }
            """##),
        SchemaComponent("FailureDescription", ##"""
            {
              "type": "object",
              "properties": {
                "code": {
                  "type": "string"
                },
                "message": {
                  "type": "string"
                }
              },
              "required": [
                "code",
                "message"
              ],
              "additionalProperties": false
            }
            """##),
        SchemaComponent("FormDescription", ##"""
            {
              "description": "Everything a generic frontend draws a form from, in one locale (protocol.md, Describing forms).",
              "type": "object",
              "properties": {
                "kind": {
                  "type": "string"
                },
                "title": {
                  "type": "string"
                },
                "fields": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/DescribedField"
                  }
                },
                "submit": {
                  "type": "object",
                  "properties": {
                    "label": {
                      "type": "string"
                    },
                    "result": {
                      "enum": [
                        "account",
                        "friend",
                        "result"
                      ]
                    },
                    "states": {
                      "type": "array",
                      "minItems": 4,
                      "maxItems": 4,
                      "items": {
                        "$ref": "#/components/schemas/SubmissionStateDescription"
                      }
                    },
                    "failures": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/FailureDescription"
                      }
                    }
                  },
                  "required": [
                    "label",
                    "result",
                    "states",
                    "failures"
                  ],
                  "additionalProperties": false
                }
              },
              "required": [
                "kind",
                "title",
                "fields",
                "submit"
              ],
              "additionalProperties": false
            }
            """##),
        SchemaComponent("Null", ##"""
            {
              "type": "null"
            }
            """##),
        SchemaComponent("FormParams", ##"""
            {
              "type": "object",
              "properties": {
                "form": {
                  "$ref": "#/components/schemas/FormId"
                },
                "at": {
                  "$ref": "#/components/schemas/Time"
                }
              },
              "additionalProperties": false
            }
            """##),
        SchemaComponent("Error", ##"""
            {
              "description": "A JSON-RPC error object; `data` by code (protocol.md §9).",
              "oneOf": [
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32700
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "offset": {
                          "type": "integer",
                          "minimum": 0
                        }
                      },
                      "required": [
                        "offset"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32600
                    },
                    "message": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32601
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "method": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "method"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32602
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "member": {
                          "type": "string"
                        },
                        "problem": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "member",
                        "problem"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32603
                    },
                    "message": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32001
                    },
                    "message": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32002
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "now": {
                          "$ref": "#/components/schemas/Time"
                        },
                        "requested": {
                          "type": "integer"
                        }
                      },
                      "required": [
                        "now",
                        "requested"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32003
                    },
                    "message": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32004
                    },
                    "message": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "code",
                    "message"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32010
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "form": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "form"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32011
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "form": {
                          "type": "string"
                        }
                      },
                      "required": [
                        "form"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32012
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "kind": {
                          "type": "string"
                        },
                        "known": {
                          "type": "array",
                          "items": {
                            "type": "string"
                          }
                        }
                      },
                      "required": [
                        "kind",
                        "known"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32013
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "field": {
                          "type": "string"
                        },
                        "kind": {
                          "type": "string"
                        },
                        "fields": {
                          "type": "array",
                          "items": {
                            "type": "string"
                          }
                        }
                      },
                      "required": [
                        "field",
                        "kind",
                        "fields"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32020
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "limit": {
                          "type": "integer"
                        }
                      },
                      "required": [
                        "limit"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32021
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "field": {
                          "type": "string"
                        },
                        "limit": {
                          "type": "integer"
                        },
                        "unit": {
                          "enum": [
                            "characters",
                            "bytes"
                          ]
                        }
                      },
                      "required": [
                        "field",
                        "limit",
                        "unit"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32022
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "limit": {
                          "type": "integer"
                        }
                      },
                      "required": [
                        "limit"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                },
                {
                  "type": "object",
                  "properties": {
                    "code": {
                      "const": -32023
                    },
                    "message": {
                      "type": "string"
                    },
                    "data": {
                      "type": "object",
                      "properties": {
                        "limit": {
                          "type": "integer"
                        }
                      },
                      "required": [
                        "limit"
                      ],
                      "additionalProperties": false
                    }
                  },
                  "required": [
                    "code",
                    "message",
                    "data"
                  ],
                  "additionalProperties": false
                }
              ]
            }
            """##),
        SchemaComponent("RemoteCheck", ##"""
            {
              "type": "object",
              "description": "A remote check as a frontend may know it: never its URL or headers.",
              "properties": {
                "name": {
                  "type": "string",
                  "minLength": 1
                },
                "kind": {
                  "enum": [
                    "usernameAvailability",
                    "http",
                    "unique",
                    "breachedPassword"
                  ]
                }
              },
              "required": [
                "name",
                "kind"
              ],
              "additionalProperties": false
            }
            """##),
        SchemaComponent("Requirement", ##"""
            {
              "type": "object",
              "properties": {
                "code": {
                  "type": "string",
                  "minLength": 1
                },
                "message": {
                  "type": "string"
                }
              },
              "required": [
                "code",
                "message"
              ],
              "additionalProperties": false
            }
            """##),
    ]
}
