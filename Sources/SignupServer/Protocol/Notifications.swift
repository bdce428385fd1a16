import SignupCore

/// The server's notifications, each with one fixed member order.
enum Notifications {
    static func encode(_ event: FormEvent, form: String, at time: Int64, action: SubmitAction) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { message in
            message.key("jsonrpc"); message.string(literal: "2.0")
            message.key("method")
            switch event {
            case .fieldChanged(let update):
                message.string(literal: "form.fieldChanged")
                message.key("params")
                message.object { params in
                    params.key("form"); params.string(form)
                    params.key("field"); params.string(update.field)
                    writeResult(update.result, to: &params)
                    params.key("version"); params.int(update.version)
                    params.key("at"); params.int(time)
                }
            case .submitEnabledChanged(let enabled):
                message.string(literal: "form.submitEnabledChanged")
                message.key("params")
                message.object { params in
                    params.key("form"); params.string(form)
                    params.key("enabled"); params.bool(enabled)
                    params.key("at"); params.int(time)
                }
            case .submissionChanged(let state):
                message.string(literal: "form.submissionChanged")
                message.key("params")
                message.object { params in
                    params.key("form"); params.string(form)
                    writeSubmission(state, of: action, to: &params)
                    params.key("at"); params.int(time)
                }
            }
        }
        return writer.bytes
    }

    /// `state`, `code`, `params` and `message` of a field result.
    static func writeResult(_ result: FieldResult, to writer: inout JSONWriter) {
        writer.key("state"); writer.string(result.state.rawValue)
        writer.key("code"); writer.string(result.code)
        writer.key("params"); writer.fields(result.params)
        writer.key("message"); writer.string(result.message)
    }

    /// `state` of a submission, with its result (`account` or `friend`) on success or `code`,
    /// `params`, `message` on failure.
    static func writeSubmission(_ state: SubmissionState, of action: SubmitAction, to writer: inout JSONWriter) {
        writer.key("state"); writer.string(action.stateNames.name(of: state))
        switch state {
        case .succeeded(let result):
            writer.key(escaping: action.resultName); writer.value(result)
        case .failed(let failure):
            writer.key("code"); writer.string(failure.code)
            writer.key("params"); writer.fields(failure.params)
            writer.key("message"); writer.string(failure.message)
        case .idle, .submitting:
            break
        }
    }
}
