import SignupCore
import SignupServer

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
        let last = times.max() ?? 0
        let start = from ?? times.min() ?? 0
        var end = max(to ?? last, start)
        if end == start { end = start + 100 }
        var builder = MarbleLanes(secretFields: secretFields)
        for entry in recording.entries { builder.take(entry) }
        self.init(from: start, to: end, lanes: builder.lanes(endingAt: last).map { $0.windowed(start, end) })
    }

    static func label(_ question: BackendQuestion) -> String {
        switch question {
        case .availability(let username): "availability \(username)"
        case .registration(let username, _): "register \(username)"
        case .login(let username, _): "logIn \(username)"
        case .addFriend(let friend): "addFriend \(friend.firstName)"
        case .updateFriend(let id, _): "updateFriend \(id)"
        case .check(let name, let inputs): "check \(name) \(inputs["value"] ?? "")"
        case .submission(let kind, _): "submit \(kind)"
        }
    }

    static func label(_ answer: BackendAnswer) -> String {
        switch answer {
        case .availability(let availability): availability.rawValue
        case .registration(.registered): "registered"
        case .registration(.usernameTaken): "usernameTaken"
        case .registration(.fieldTaken(let field)): "\(field) taken"
        case .registration(.refused): "refused"
        case .login(.loggedIn): "loggedIn"
        case .login(.wrongCredentials): "wrongCredentials"
        case .login(.rateLimited): "rateLimited"
        case .friend(.saved): "saved"
        case .friend(.notFound): "notFound"
        case .friend(.unauthorised): "unauthorised"
        case .friend(.conflict): "conflict"
        case .verdict(.passed): "passed"
        case .verdict(.rejected(let issue)): issue?.code ?? "rejected"
        case .verdict(.rejectedWith): "rejected"
        case .submission(.accepted): "accepted"
        case .submission(.refused(let status, _)): "refused \(status)"
        case .failure(.unavailable): "unavailable"
        case .failure(.timedOut): "timedOut"
        case .failure(.checkBudgetExceeded): "overBudget"
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
