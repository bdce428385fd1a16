import SignupCore
import SignupProtocol
import SignupServer

/// Builds a diagram's lanes from a recording's entries, in order: each form's lanes, then the backend's.
struct MarbleLanes {
    typealias Lane = MarbleDiagram.Lane
    typealias Marble = MarbleDiagram.Marble

    /// One form's lanes, its fields in the order they first appear.
    private struct FormLanes {
        var fields: [String] = []
        var values: [String: Lane] = [:]
        var results: [String: Lane] = [:]
        var enabled: Lane?
        /// When submit was last enabled, while it is.
        var enabledSince: Int64?
        var submissions: Lane?

        mutating func note(_ field: String) {
            if !fields.contains(field) { fields.append(field) }
        }
    }

    let secretFields: Set<String>
    private var forms: [String] = []
    private var lanesOfForm: [String: FormLanes] = [:]
    private var backend = Lane(title: "backend")
    private var asked: [Int: (time: Int64, question: BackendQuestion)] = [:]
    /// Every value each field had, with when: to tell stale answers.
    private var history: [(time: Int64, form: String, field: String, value: String)] = []

    init(secretFields: Set<String>) {
        self.secretFields = secretFields
    }

    mutating func take(_ entry: Recording.Entry) {
        switch entry {
        case .input(let taken, .message(let message)):
            let requests: [JSON] = if case .array(let elements) = message { elements } else { [message] }
            for request in requests { take(request, takenAt: taken) }
        case .output(let time, let message): take(output: message, at: time)
        case .ask(let time, let number, let question): asked[number] = (time, question)
        case .answer(let time, let number, let answer):
            guard let question = asked.removeValue(forKey: number) else { return }
            let ending: MarbleDiagram.Ending = isStale(question, answeredAt: time) ? .stale : .answered
            backend.bars.append(.init(start: question.time, end: time, label: MarbleDiagram.label(question.question), ending: ending,
                                      answer: MarbleDiagram.label(answer)))
        case .cancel(let time, let number):
            guard let question = asked.removeValue(forKey: number) else { return }
            // A check is withdrawn when its value is edited again: latest-only drops it as stale.
            let answer = if case .availability = question.question { "stale: cancelled" } else { "cancelled" }
            backend.bars.append(.init(start: question.time, end: time, label: MarbleDiagram.label(question.question), ending: .cancelled,
                                      answer: answer))
        case .input, .end: return
        }
    }

    /// Every lane, questions still unanswered and submit still enabled drawn to `last`.
    func lanes(endingAt last: Int64) -> [Lane] {
        var lanes: [Lane] = []
        for form in forms {
            guard var own = lanesOfForm[form] else { continue }
            for field in own.fields {
                lanes.append(own.values[field] ?? Lane(title: "\(form) · \(field)"))
                if let result = own.results[field] { lanes.append(result) }
            }
            if let since = own.enabledSince { own.enabled?.spans.append(.init(start: since, end: last)) }
            if let lane = own.enabled { lanes.append(lane) }
            if let lane = own.submissions { lanes.append(lane) }
        }
        var backend = backend
        for (_, question) in asked.sorted(by: { $0.key < $1.key }) {
            backend.bars.append(.init(start: question.time, end: last, label: MarbleDiagram.label(question.question), ending: .open,
                                      answer: "no answer"))
        }
        return lanes + [backend]
    }

    /// The lanes of `form`, noted in order of first appearance.
    private mutating func withLanes(of form: String, _ change: (inout FormLanes) -> Void) {
        if lanesOfForm[form] == nil {
            forms.append(form)
            lanesOfForm[form] = FormLanes()
        }
        change(&lanesOfForm[form]!)
    }

    private mutating func take(_ request: JSON, takenAt taken: Int64) {
        guard case .string(let method)? = request["method"] else { return }
        let params = request["params"]
        // On the virtual clock a message moves time to its own `at` as it is handled.
        let time = max(taken, params?["at"]?.int64 ?? taken)
        // Read through the message types, as the server reads them: a message it refuses is not drawn.
        switch method {
        case FormEditRequest.method:
            guard let edit = try? FormEditRequest(FormEditRequest.params(params)) else { return }
            typed(edit.value, into: edit.field, of: edit.form ?? Server.defaultFormID, at: time)
        case FormOpenRequest.method:
            guard let open = try? FormOpenRequest(FormOpenRequest.params(params)) else { return }
            // The values a form opens with, as if typed then.
            for (field, value) in open.values + (open.record ?? []) {
                typed(value, into: field, of: open.form ?? Server.defaultFormID, at: time)
            }
        case FormSubmitRequest.method:
            guard let submit = try? FormSubmitRequest(FormSubmitRequest.params(params)) else { return }
            withLanes(of: submit.form ?? Server.defaultFormID) { _ in }
        default: return
        }
    }

    private mutating func typed(_ value: String, into field: String, of form: String, at time: Int64) {
        history.append((time, form, field, value))
        let shown = secretFields.contains(field) ? String(repeating: "•", count: min(value.count, 12)) : value
        withLanes(of: form) { own in
            own.note(field)
            own.values[field, default: Lane(title: "\(form) · \(field)")]
                .marbles.append(Marble(time: time, label: shown.isEmpty ? "∅" : shown, tone: .input))
        }
    }

    private mutating func take(output message: JSON, at time: Int64) {
        guard case .string(let method)? = message["method"], let params = message["params"],
              case .string(let form)? = params["form"] else { return }
        let at = params["at"]?.int64 ?? time
        switch method {
        case "form.fieldChanged":
            guard case .string(let field)? = params["field"], case .string(let state)? = params["state"],
                  case .string(let code)? = params["code"] else { return }
            let short = code.split(separator: ".").last.map(String.init) ?? code
            withLanes(of: form) { own in
                own.note(field)
                own.results[field, default: Lane(title: "\(form) · \(field) result")]
                    .marbles.append(Marble(time: at, label: short, tone: MarbleDiagram.Tone(rawValue: state) ?? .input))
            }
        case "form.submitEnabledChanged":
            let isEnabled = params["enabled"] == .bool(true)
            withLanes(of: form) { own in
                if own.enabled == nil { own.enabled = Lane(title: "\(form) · submit enabled") }
                if isEnabled {
                    if own.enabledSince == nil { own.enabledSince = at }
                } else if let since = own.enabledSince {
                    own.enabledSince = nil
                    own.enabled?.spans.append(.init(start: since, end: at))
                }
            }
        case "form.submissionChanged":
            guard case .string(let state)? = params["state"] else { return }
            let tone: MarbleDiagram.Tone = params["code"] != nil ? .failed : (params["account"] != nil ? .ok : .validating)
            withLanes(of: form) { own in
                if own.submissions == nil { own.submissions = Lane(title: "\(form) · submissions") }
                own.submissions?.marbles.append(Marble(time: at, label: state, tone: tone))
            }
        default: return
        }
    }

    /// Whether an availability answer came for a value its field no longer had.
    private func isStale(_ question: (time: Int64, question: BackendQuestion), answeredAt time: Int64) -> Bool {
        guard case .availability(let username) = question.question,
              let asking = history.last(where: { $0.time <= question.time && $0.value == username }),
              let current = history.last(where: { $0.time <= time && $0.form == asking.form && $0.field == asking.field })
        else { return false }
        return current.value != username
    }
}
