import Foundation
import SignupCore
import SignupProtocol
import SignupServer

/// Turns a recording into a fixture for the test suite: `PATH.jsonl` (the inputs, each after a
/// `clock.advance` notification to its recorded time), `PATH.directory.json` (the recorded
/// answers as `replies`), `PATH.flags`, any recorded form kinds under `PATH.forms/`, and
/// `PATH.out.jsonl`, the fixture's own output.
enum FixtureWriter {
    package struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether a message, or a message of a batch, is `shutdown`.
    private static func asksToShutDown(_ message: JSON) -> Bool {
        if case .array(let messages) = message { return messages.contains(where: asksToShutDown) }
        return message["method"] == .string(ShutdownRequest.method)
    }

    /// Writes the fixture with each input placed against its millisecond's due work as
    /// `inputsBeforeDueWork` says: by default as a replay finds it (`Replayer.runFindingOrder`).
    static func write(_ recording: Recording, inputsBeforeDueWork: [Bool]? = nil, to path: String) throws(Problem) {
        let name = (path as NSString).lastPathComponent
        var input = JSONWriter(capacity: 1 << 16)
        var time: Int64 = 0
        // After `shutdown` every request but `exit` is refused: no more `clock.advance` is written.
        var isShutDown = false
        // An input that came before the work due in its millisecond is written after an
        // exclusive advance; the work waits until the next advance.
        let inputsBeforeDueWork = inputsBeforeDueWork
            ?? (try? Replayer(recording: recording).runFindingOrder().inputsBeforeDueWork)
            ?? recording.inputsBeforeDueWork
        var inputNumber = 0
        var isHoldingDueWork = false
        for entry in recording.entries {
            guard case .input(let at, let message) = entry else { continue }
            let comesFirst = inputsBeforeDueWork[inputNumber]
            inputNumber += 1
            if !isShutDown, at > time || (isHoldingDueWork && !comesFirst) {
                ClockAdvanceRequest(.to(at), exclusive: comesFirst).writeNotification(to: &input)
                input.verbatim("\n")
                time = at
                isHoldingDueWork = comesFirst
            }
            if let bytes = Replayer.bytes(of: message) {
                bytes.withUnsafeBytes { input.verbatim($0) }
            } else {
                Self.appendOversize(recording.header.limits.maxLineBytes, to: &input)
            }
            input.newline()
            if case .message(let json) = message { isShutDown = isShutDown || Self.asksToShutDown(json) }
        }

        var answers: [Int: (time: Int64, answer: BackendAnswer)] = [:]
        for case .answer(let time, let number, let answer) in recording.entries { answers[number] = (time, answer) }
        var directory = JSONWriter(capacity: 4096)
        directory.object { body in
            body.key("replies")
            body.array { list in
                for case .ask(_, let number, let question) in recording.entries {
                    list.object { reply in
                        reply.key("ask")
                        reply.object { BackendExchangeJSON.write(question, to: &$0) }
                        if let answered = answers[number] {
                            reply.key("at"); reply.int(answered.time)
                            reply.key("answer")
                            reply.object { BackendExchangeJSON.write(answered.answer, to: &$0) }
                        }
                    }
                }
            }
        }
        directory.newline()

        var flags = ["--directory", "\(path).directory.json"]
        let header = recording.header
        let defaults = ServerConfiguration()
        if header.debounce != defaults.debounce.milliseconds { flags += ["--debounce-ms", String(header.debounce)] }
        if header.checkBudget.session != defaults.checkBudget.session {
            flags += ["--session-checks-per-minute", String(header.checkBudget.session)]
        }
        if header.checkBudget.store != defaults.checkBudget.store {
            flags += ["--store-checks-per-minute", String(header.checkBudget.store)]
        }
        let limits = defaults.limits
        for member in Limits.members {
            if let option = member.option, header.limits[keyPath: member.value] != limits[keyPath: member.value] {
                flags += [option, String(header.limits[keyPath: member.value])]
            }
        }
        if !header.formFiles.isEmpty {
            let folder = "\(path).forms"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, document) in header.formFiles.enumerated() {
                var writer = JSONWriter()
                writer.json(document)
                writer.newline()
                try save(writer, to: "\(folder)/\(String(format: "%02d", index + 1)).json")
            }
            flags += ["--forms", folder]
        }

        try save(input, to: "\(path).jsonl")
        try save(directory, to: "\(path).directory.json")
        guard (try? (flags.joined(separator: " ") + "\n").write(toFile: "\(path).flags", atomically: true, encoding: .utf8)) != nil else {
            throw Problem(description: "cannot write \(path).flags")
        }
        let run: FixtureRun
        do throws(FixtureRun.Problem) {
            run = try FixtureRun(input: input.withBytes { Array($0) }, flags: flags, recording: false)
        } catch {
            throw Problem(description: "the fixture \(name) does not run: \(error.description)")
        }
        var output = JSONWriter(capacity: 1 << 16)
        for message in run.output {
            message.withUnsafeBytes { output.verbatim($0) }
            output.newline()
        }
        try save(output, to: "\(path).out.jsonl")
    }

    private static func appendOversize(_ limit: Int, to writer: inout JSONWriter) {
        let line = [UInt8](repeating: UInt8(ascii: " "), count: limit) + Array(#"{"oversize":true}"#.utf8)
        line.withUnsafeBytes { writer.verbatim($0) }
    }

    private static func save(_ writer: borrowing JSONWriter, to path: String) throws(Problem) {
        let saved = writer.withBytes { bytes in FileManager.default.createFile(atPath: path, contents: Data(bytes)) }
        if !saved { throw Problem(description: "cannot write \(path)") }
    }
}
