import Foundation
import SignupCore
import SignupProtocol
import SignupServer

/// A session recording read back (the format `SessionRecorder` writes; protocol.md §15).
package struct Recording {
    /// What a recording needs to be replayed under the same conditions.
    package struct Header {
        package var clock: ClockMode
        /// Milliseconds.
        package var debounce: Int64
        var limits: Limits
        /// Written only when not the default, so older recordings read as before.
        var checkBudget = CheckBudgetLimits()
        /// What the session's users were checked against: `scripted`, `sqlite`, `postgresql` or `http`.
        var backend: String
        /// The roles the backend plays beyond availability and registration.
        var logsIn: Bool
        var savesFriends: Bool
        /// The `--forms` documents, as loaded.
        var formFiles: [JSON]
    }

    /// A message the server took.
    package enum Input {
        case message(JSON)
        /// A line that was not JSON, as its bytes.
        case text([UInt8])
        /// A line over the line limit.
        case oversize
    }

    enum Entry {
        case input(time: Int64, Input)
        case output(time: Int64, JSON)
        case ask(time: Int64, number: Int, BackendQuestion)
        case answer(time: Int64, number: Int, BackendAnswer)
        case cancel(time: Int64, number: Int)
        case end(time: Int64, reason: String)

        var time: Int64 {
            switch self {
            case .input(let time, _), .output(let time, _), .ask(let time, _, _), .answer(let time, _, _),
                 .cancel(let time, _), .end(let time, _):
                return time
            }
        }
    }

    package struct Problem: Error, CustomStringConvertible {
        package var line: Int
        var reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    package var header: Header
    var entries: [Entry]

    var outputs: [JSON] {
        entries.compactMap { if case .output(_, let message) = $0 { message } else { nil } }
    }

    package static func read(_ bytes: [UInt8]) throws(Problem) -> Recording {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw Problem(line: 1, reason: "the recording is empty") }
        let header = try readHeader(Array(first))
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated().dropFirst() {
            entries.append(try entry(Array(line), line: index + 1))
        }
        return Recording(header: header, entries: entries)
    }

    private static func parse(_ line: [UInt8], _ number: Int) throws(Problem) -> JSON {
        do throws(JSONParseError) {
            // A line refused for its combining marks is recorded with one mark over the limit.
            return try JSONParser.parse(line, maxDepth: 10_000, marksInARow: CombiningMarks.mostInARow + 1)
        } catch {
            throw Problem(line: number, reason: "not JSON: \(error.description)")
        }
    }

    /// The latest time a record may carry: the protocol's latest virtual time.
    static let latestTime = TimePoint.horizon.milliseconds

    /// The header, each member checked as the command line checks its option: a member of the
    /// wrong type or out of range is a problem naming it (`$.debounceMs`).
    private static func readHeader(_ line: [UInt8]) throws(Problem) -> Header {
        let json = try parse(line, 1)
        guard json["signupRecording"] == .number("1") else {
            throw Problem(line: 1, reason: "not a signup-rpc recording of format 1 (its first line has no \"signupRecording\":1)")
        }
        guard case .string(let clockName)? = json["clock"], let clock = ClockMode(rawValue: clockName) else {
            throw Problem(line: 1, reason: "$.clock: must be real or virtual")
        }
        func count(_ value: JSON?, _ path: String, from least: Int64, default fallback: Int64) throws(Problem) -> Int64 {
            guard let value else { return fallback }
            guard let number = value.int64, number >= least, number <= Int64(Int32.max) else {
                throw Problem(line: 1, reason: "\(path): must be a whole number from \(least) to \(Int32.max)")
            }
            return number
        }
        func list(_ name: String) throws(Problem) -> [JSON] {
            switch json[name] {
            case nil: return []
            case .array(let elements)?: return elements
            default: throw Problem(line: 1, reason: "$.\(name): must be an array")
            }
        }
        var limits = Limits()
        if let recorded = json["limits"] {
            guard case .object = recorded else { throw Problem(line: 1, reason: "$.limits: must be an object") }
            for (name, value, _) in Limits.members {
                limits[keyPath: value] = Int(try count(recorded[name], "$.limits.\(name)", from: 1, default: Int64(limits[keyPath: value])))
            }
        }
        let roles = try list("roles")
        let forms = try list("forms")
        if let index = forms.firstIndex(where: { if case .object = $0 { false } else { true } }) {
            throw Problem(line: 1, reason: "$.forms[\(index)]: must be a form document (an object)")
        }
        let backend: String
        switch json["backend"] {
        case nil: backend = "scripted"
        case .string(let name)? where ["scripted", "sqlite", "postgresql", "http"].contains(name): backend = name
        default: throw Problem(line: 1, reason: "$.backend: must be scripted, sqlite, postgresql or http")
        }
        let defaults = CheckBudgetLimits()
        let budget = json["checkBudget"] ?? .object([])
        guard case .object = budget else { throw Problem(line: 1, reason: "$.checkBudget: must be an object") }
        let checkBudget = CheckBudgetLimits(
            session: Int(try count(budget["session"], "$.checkBudget.session", from: 0, default: Int64(defaults.session))),
            store: Int(try count(budget["store"], "$.checkBudget.store", from: 0, default: Int64(defaults.store))))
        return Header(
            clock: clock, debounce: try count(json["debounceMs"], "$.debounceMs", from: 0, default: 300), limits: limits,
            checkBudget: checkBudget,
            backend: backend, logsIn: roles.contains(.string("logIn")), savesFriends: roles.contains(.string("friends")),
            formFiles: forms)
    }

    private static func entry(_ line: [UInt8], line number: Int) throws(Problem) -> Entry {
        let json = try parse(line, number)
        guard let time = json["t"]?.int64, (0...latestTime).contains(time) else {
            throw Problem(line: number, reason: "$.t: must be a whole number of milliseconds from 0 to \(latestTime)")
        }
        if let message = json["in"] { return .input(time: time, .message(message)) }
        if case .string(let text)? = json["text"] { return .input(time: time, .text(Array(text.utf8))) }
        if case .string(let encoded)? = json["base64"] {
            guard let data = Data(base64Encoded: encoded) else { throw Problem(line: number, reason: "base64 is not base64") }
            return .input(time: time, .text(Array(data)))
        }
        if json["oversize"] != nil { return .input(time: time, .oversize) }
        if let message = json["out"] { return .output(time: time, message) }
        do throws(BackendExchangeJSON.Problem) {
            if let ask = json["ask"]?.int64 { return .ask(time: time, number: Int(clamping: ask), try BackendExchangeJSON.question(json)) }
            if let answer = json["answer"]?.int64 { return .answer(time: time, number: Int(clamping: answer), try BackendExchangeJSON.answer(json)) }
        } catch {
            throw Problem(line: number, reason: error.description)
        }
        if let cancel = json["cancel"]?.int64 { return .cancel(time: time, number: Int(clamping: cancel)) }
        if case .string(let reason)? = json["end"] { return .end(time: time, reason: reason) }
        throw Problem(line: number, reason: "is not a record (in, text, base64, oversize, out, ask, answer, cancel or end)")
    }
}
