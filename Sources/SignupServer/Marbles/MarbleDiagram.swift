import SignupCore

/// A session drawn as marbles on a shared time axis: for each form, a lane per field's value and
/// per field's result, one for whether submit is enabled and one for its submissions; and one
/// lane for the backend, a bar per question from when it was asked to when it was answered or
/// withdrawn. Built from a recording; drawn by `MarbleSVG`.
struct MarbleDiagram: Equatable {
    enum Tone: String, Equatable {
        /// A value typed, a submission's neutral states.
        case input
        case empty, validating, ok, failed
    }

    struct Marble: Equatable {
        var time: Int64
        var label: String
        var tone: Tone
    }

    /// How a backend question ended.
    enum Ending: String, Equatable {
        case answered
        /// Withdrawn before its answer (a newer value, a closed form): struck through.
        case cancelled
        /// Answered, but for a value the field no longer had: dropped as stale.
        case stale
        /// Still unanswered when the session ended.
        case open
    }

    struct Bar: Equatable {
        var start: Int64
        var end: Int64
        var label: String
        var ending: Ending
        var answer: String
    }

    /// A stretch during which submit was enabled.
    struct Span: Equatable {
        var start: Int64
        var end: Int64
    }

    struct Lane: Equatable {
        var title: String
        var marbles: [Marble] = []
        var bars: [Bar] = []
        var spans: [Span] = []
    }

    var from: Int64
    var to: Int64
    var lanes: [Lane]
}

extension MarbleDiagram {
    /// The diagram of `recording`, windowed to `from`…`to` when given.
    init(_ recording: Recording, from: Int64? = nil, to: Int64? = nil, secretFields: Set<String>) {
        let times = recording.entries.map(\.time)
        let first = times.min() ?? 0
        let last = times.max() ?? 0
        let start = from ?? first
        var end = max(to ?? last, start)
        if end == start { end = start + 100 }
        var forms: [String] = []
        var values: [String: Lane] = [:], results: [String: Lane] = [:], fieldOrder: [String: [String]] = [:]
        var enabled: [String: Lane] = [:], submissions: [String: Lane] = [:], enabledSince: [String: Int64] = [:]
        /// Every value each field had, with when: to tell stale answers.
        var history: [(time: Int64, form: String, field: String, value: String)] = []
        func note(form: String) {
            if !forms.contains(form) { forms.append(form) }
        }
        func note(field: String, of form: String) {
            note(form: form)
            if !(fieldOrder[form] ?? []).contains(field) { fieldOrder[form, default: []].append(field) }
        }
        var backend = Lane(title: "backend")
        var asked: [Int: (time: Int64, question: BackendQuestion)] = [:]
        for entry in recording.entries {
            switch entry {
            case .input(let taken, .message(let message)):
                for request in Self.requests(in: message) {
                    guard case .string(let method)? = request["method"] else { continue }
                    let params = request["params"]
                    // On the virtual clock a message moves time to its own `at` as it is handled.
                    let time = max(taken, params?["at"]?.int64 ?? taken)
                    let form: String = if case .string(let name)? = params?["form"] { name } else { "default" }
                    func typed(_ field: String, _ value: String) {
                        note(field: field, of: form)
                        history.append((time, form, field, value))
                        let shown = secretFields.contains(field) ? String(repeating: "•", count: min(value.count, 12)) : value
                        values[form + "\u{0}" + field, default: Lane(title: "\(form) · \(field)")]
                            .marbles.append(Marble(time: time, label: shown.isEmpty ? "∅" : shown, tone: .input))
                    }
                    if method == "form.edit", case .string(let field)? = params?["field"], case .string(let value)? = params?["value"] {
                        typed(field, value)
                    } else if method == "form.open" {
                        // The values a form opens with, as if typed then.
                        for key in ["values", "record"] {
                            guard case .object(let members)? = params?[key] else { continue }
                            for member in members { if case .string(let value) = member.value { typed(member.key, value) } }
                        }
                    } else if method == "form.submit" {
                        note(form: form)
                    }
                }
            case .output(let time, let message):
                guard case .string(let method)? = message["method"], let params = message["params"],
                      case .string(let form)? = params["form"] else { continue }
                let at = params["at"]?.int64 ?? time
                switch method {
                case "form.fieldChanged":
                    guard case .string(let field)? = params["field"], case .string(let state)? = params["state"],
                          case .string(let code)? = params["code"] else { continue }
                    note(field: field, of: form)
                    let short = code.split(separator: ".").last.map(String.init) ?? code
                    results[form + "\u{0}" + field, default: Lane(title: "\(form) · \(field) result")]
                        .marbles.append(Marble(time: at, label: short, tone: Tone(rawValue: state) ?? .input))
                case "form.submitEnabledChanged":
                    note(form: form)
                    var lane = enabled[form] ?? Lane(title: "\(form) · submit enabled")
                    if params["enabled"] == .bool(true) {
                        if enabledSince[form] == nil { enabledSince[form] = at }
                    } else if let since = enabledSince.removeValue(forKey: form) {
                        lane.spans.append(Span(start: since, end: at))
                    }
                    enabled[form] = lane
                case "form.submissionChanged":
                    guard case .string(let state)? = params["state"] else { continue }
                    note(form: form)
                    let tone: Tone = params["code"] != nil ? .failed : (params["account"] != nil ? .ok : .validating)
                    submissions[form, default: Lane(title: "\(form) · submissions")]
                        .marbles.append(Marble(time: at, label: state, tone: tone))
                default: continue
                }
            case .ask(let time, let number, let question):
                asked[number] = (time, question)
            case .answer(let time, let number, let answer):
                guard let question = asked.removeValue(forKey: number) else { continue }
                var ending = Ending.answered
                if case .availability(let username) = question.question,
                   let asking = history.last(where: { $0.time <= question.time && $0.value == username }),
                   let current = history.last(where: { $0.time <= time && $0.form == asking.form && $0.field == asking.field }),
                   current.value != username {
                    ending = .stale
                }
                backend.bars.append(Bar(start: question.time, end: time, label: Self.label(question.question), ending: ending,
                                        answer: Self.label(answer)))
            case .cancel(let time, let number):
                guard let question = asked.removeValue(forKey: number) else { continue }
                // A check is withdrawn when its value is edited again: latest-only drops it as stale.
                let answer = if case .availability = question.question { "stale: cancelled" } else { "cancelled" }
                backend.bars.append(Bar(start: question.time, end: time, label: Self.label(question.question), ending: .cancelled, answer: answer))
            default: continue
            }
        }
        for (_, question) in asked.sorted(by: { $0.key < $1.key }) {
            backend.bars.append(Bar(start: question.time, end: last, label: Self.label(question.question), ending: .open, answer: "no answer"))
        }
        for (form, since) in enabledSince { enabled[form]?.spans.append(Span(start: since, end: last)) }

        var lanes: [Lane] = []
        for form in forms {
            for field in fieldOrder[form] ?? [] {
                lanes.append(values[form + "\u{0}" + field] ?? Lane(title: "\(form) · \(field)"))
                if let result = results[form + "\u{0}" + field] { lanes.append(result) }
            }
            if let lane = enabled[form] { lanes.append(lane) }
            if let lane = submissions[form] { lanes.append(lane) }
        }
        lanes.append(backend)
        self.init(from: start, to: end, lanes: lanes.map { $0.windowed(start, end) })
    }

    /// The requests of a message or a batch.
    private static func requests(in message: JSON) -> [JSON] {
        if case .array(let elements) = message { return elements }
        return [message]
    }

    static func label(_ question: BackendQuestion) -> String {
        switch question {
        case .availability(let username): "availability \(username)"
        case .registration(let username, _): "register \(username)"
        case .login(let username, _): "logIn \(username)"
        case .addFriend(let friend): "addFriend \(friend.firstName)"
        case .updateFriend(let id, _): "updateFriend \(id)"
        }
    }

    static func label(_ answer: BackendAnswer) -> String {
        switch answer {
        case .availability(let availability): availability.rawValue
        case .registration(.registered): "registered"
        case .registration(.usernameTaken): "usernameTaken"
        case .registration(.refused): "refused"
        case .login(.loggedIn): "loggedIn"
        case .login(.wrongCredentials): "wrongCredentials"
        case .login(.rateLimited): "rateLimited"
        case .friend(.saved): "saved"
        case .friend(.notFound): "notFound"
        case .friend(.unauthorised): "unauthorised"
        case .friend(.conflict): "conflict"
        case .failure(.unavailable): "unavailable"
        case .failure(.timedOut): "timedOut"
        }
    }
}

extension MarbleDiagram.Lane {
    /// What of the lane falls within `from`…`to`; bars and spans are cut at the edges.
    func windowed(_ from: Int64, _ to: Int64) -> Self {
        var lane = self
        lane.marbles = marbles.filter { $0.time >= from && $0.time <= to }
        lane.bars = bars.filter { $0.end >= from && $0.start <= to }
        lane.spans = spans.filter { $0.end >= from && $0.start <= to }
        return lane
    }
}
