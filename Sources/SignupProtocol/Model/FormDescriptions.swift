import SignupCore

/// How form kinds are written on the wire (protocol.md, "Describing forms"): a summary of each
/// kind in `initialize`, or, to clients that asked, the whole description a frontend draws from.
package enum FormDescriptions {
    /// `kind` and its fields' `name`, `required`, `secret` and `remoteCheck` (the kind of its first
    /// remote check).
    package static func writeSummary(of definition: FormDefinition, to writer: inout JSONWriter) {
        writer.object { form in
            form.key("kind"); form.string(definition.kind)
            form.key("fields")
            form.array { fields in
                for field in definition.fields {
                    fields.object { writeSummary(of: field, to: &$0) }
                }
            }
        }
    }

    /// The summary's members, then the title, each field's label, placeholder, input kind and
    /// maximum length, remote checks (`name` and `kind`) and a checklist field's requirements, and the submit button with its states and failures, in the form's locale.
    package static func write(_ description: FormDescription, definition: FormDefinition, to writer: inout JSONWriter) {
        writer.object { form in
            form.key("kind"); form.string(description.kind)
            form.key("title"); form.string(description.title)
            form.key("fields")
            form.array { fields in
                for (field, described) in zip(definition.fields, description.fields) {
                    fields.object {
                        writeSummary(of: field, to: &$0)
                        $0.key("label"); $0.string(described.label)
                        $0.key("placeholder")
                        if let placeholder = described.placeholder { $0.string(placeholder) } else { $0.null() }
                        $0.key("input"); $0.string(described.input.rawValue)
                        $0.key("maxLength")
                        if let maxLength = described.maxLength { $0.int(maxLength) } else { $0.null() }
                        $0.key("remoteChecks")
                        $0.array { checks in
                            for check in described.remoteChecks {
                                checks.object {
                                    $0.key("name"); $0.string(check.name)
                                    $0.key("kind"); $0.string(check.kind)
                                }
                            }
                        }
                        // Only a field that has them has these members.
                        if let help = described.help {
                            $0.key("help"); $0.string(help)
                        }
                        if let initialValue = described.initialValue {
                            $0.key("default"); $0.string(initialValue)
                        }
                        if described.isConditional {
                            $0.key("conditional"); $0.bool(true)
                        }
                        if let choices = described.choices {
                            $0.key("choices")
                            $0.array { list in for choice in choices { list.string(choice) } }
                        }
                        // Only a checklist field has the member.
                        if !described.requirements.isEmpty {
                            $0.key("requirements")
                            $0.array { requirements in
                                for requirement in described.requirements {
                                    requirements.object {
                                        $0.key("code"); $0.string(requirement.code)
                                        $0.key("message"); $0.string(requirement.text)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            form.key("submit")
            form.object { submit in
                submit.key("label"); submit.string(description.submitLabel)
                submit.key("result"); submit.string(description.resultName)
                submit.key("states")
                submit.array { states in
                    for state in description.states {
                        states.object {
                            $0.key("state"); $0.string(state.name)
                            $0.key("meaning"); $0.string(state.meaning)
                            $0.key("message"); $0.string(state.text)
                        }
                    }
                }
                submit.key("failures")
                submit.array { failures in
                    for failure in description.failures {
                        failures.object {
                            $0.key("code"); $0.string(failure.code)
                            $0.key("message"); $0.string(failure.message)
                        }
                    }
                }
            }
        }
    }

    private static func writeSummary(of field: FieldDefinition, to writer: inout JSONWriter) {
        writer.key("name"); writer.string(field.name)
        writer.key("required"); writer.bool(field.isRequired)
        writer.key("secret"); writer.bool(field.isSecret)
        writer.key("remoteCheck")
        if let check = field.remoteChecks.first { writer.string(check.kind.name) } else { writer.null() }
    }
}
