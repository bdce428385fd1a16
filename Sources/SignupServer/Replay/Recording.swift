import Foundation
import SignupCore

/// A session recording read back (the format `SessionRecorder` writes; protocol.md §15).
struct Recording {
    /// What a recording needs to be replayed under the same conditions.
    struct Header {
        var clock: ClockMode
        /// Milliseconds.
        var debounce: Int64
        var limits: Limits
        /// What the session's users were checked against: `scripted`, `sqlite`, `postgresql` or `http`.
        var backend: String
        /// The roles the backend plays beyond availability and registration.
        var logsIn: Bool
        var savesFriends: Bool
        /// The `--forms` documents, as loaded.
        var formFiles: [JSON]
    }

    /// A message the server took.
    enum Input {
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

    struct Problem: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    var header: Header
    var entries: [Entry]

    var outputs: [JSON] {
        entries.compactMap { if case .output(_, let message) = $0 { message } else { nil } }
    }

    static func read(_ bytes: [UInt8]) throws(Problem) -> Recording {
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
            return try JSONParser.parse(line, maxDepth: 10_000)
        } catch {
            throw Problem(line: number, reason: "not JSON: \(error.description)")
        }
    }

    private static func readHeader(_ line: [UInt8]) throws(Problem) -> Header {
        let json = try parse(line, 1)
        guard json["signupRecording"] == .number("1") else {
            throw Problem(line: 1, reason: "not a signup-rpc recording of format 1 (its first line has no \"signupRecording\":1)")
        }
        guard case .string(let clockName)? = json["clock"], let clock = ClockMode(rawValue: clockName) else {
            throw Problem(line: 1, reason: "the header needs clock, real or virtual")
        }
        var limits = Limits()
        if let recorded = json["limits"] {
            limits.maxLineBytes = recorded["maxLineBytes"]?.int64.map { Int(clamping: $0) } ?? limits.maxLineBytes
            limits.maxValueLength = recorded["maxValueLength"]?.int64.map { Int(clamping: $0) } ?? limits.maxValueLength
            limits.maxForms = recorded["maxForms"]?.int64.map { Int(clamping: $0) } ?? limits.maxForms
            limits.maxBatch = recorded["maxBatch"]?.int64.map { Int(clamping: $0) } ?? limits.maxBatch
            limits.maxDepth = recorded["maxDepth"]?.int64.map { Int(clamping: $0) } ?? limits.maxDepth
        }
        let roles: [JSON] = if case .array(let names)? = json["roles"] { names } else { [] }
        let forms: [JSON] = if case .array(let documents)? = json["forms"] { documents } else { [] }
        let backend: String = if case .string(let name)? = json["backend"] { name } else { "scripted" }
        return Header(
            clock: clock, debounce: json["debounceMs"]?.int64 ?? 300, limits: limits, backend: backend,
            logsIn: roles.contains(.string("logIn")), savesFriends: roles.contains(.string("friends")), formFiles: forms)
    }

    private static func entry(_ line: [UInt8], line number: Int) throws(Problem) -> Entry {
        let json = try parse(line, number)
        guard let time = json["t"]?.int64 else { throw Problem(line: number, reason: "needs t, a whole number of milliseconds") }
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
