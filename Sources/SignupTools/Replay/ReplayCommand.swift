import Foundation
import SignupCore
import SignupFormFiles
import SignupProtocol
import SignupServer

/// `signup-rpc replay FILE [--write-fixture PATH]`: replays a recording and says whether the
/// server still writes what it wrote; exits 0 when it does, 1 at the first difference, 65 for a
/// file that is not a recording.
package enum ReplayCommand {
    package static func run(recording path: String, fixture: String?) -> Never {
        guard let contents = FileManager.default.contents(atPath: path) else {
            SignupRPCCommand.fail("cannot read the recording '\(path)'", exitCode: 66)
        }
        let recording: Recording
        do throws(Recording.Problem) {
            recording = try Recording.read(Array(contents))
        } catch {
            SignupRPCCommand.fail("\(path): \(error.description)", exitCode: 65)
        }
        let outcome: Replayer.Outcome
        let inputsBeforeDueWork: [Bool]
        do throws(FormFile.Problem) {
            (outcome, inputsBeforeDueWork) = try Replayer(recording: recording).runFindingOrder()
        } catch {
            SignupRPCCommand.fail("\(path): \(error.description)", exitCode: 65)
        }
        if let fixture {
            do throws(FixtureWriter.Problem) {
                try FixtureWriter.write(recording, inputsBeforeDueWork: inputsBeforeDueWork, to: fixture)
            } catch {
                SignupRPCCommand.fail(error.description, exitCode: 73)
            }
        }
        let report = report(of: outcome, recording: recording, path: path)
        FileHandle.standardError.write(Data(report.utf8))
        exit(outcome.divergence == nil ? 0 : 1)
    }

    static func report(of outcome: Replayer.Outcome, recording: Recording, path: String) -> String {
        var lines: [String] = []
        for question in outcome.unrecordedQuestions {
            lines.append("note: the replay asked \(describe(question)), which the recording never asked; it went unanswered")
        }
        guard let divergence = outcome.divergence else {
            lines.append("\(path): the replay matches the recording: \(outcome.inputs) messages in, \(outcome.replayed.count) out, \(outcome.answers) backend answers, 0–\(outcome.endTime) ms")
            return lines.map { "signup-rpc replay: \($0)\n" }.joined()
        }
        let when = divergence.time.map { " (recorded at \($0) ms)" } ?? ""
        var text = "signup-rpc replay: \(path): the replay differs from the recording at output message \(divergence.index + 1)\(when):\n"
        text += "  recorded: \(divergence.recorded.map(encode) ?? "nothing more")\n"
        text += "  replayed: \(divergence.replayed.map(encode) ?? "nothing more")\n"
        if !divergence.context.isEmpty {
            text += "  just before it, the recording has:\n"
            for entry in divergence.context { text += "    \(describe(entry))\n" }
        }
        return lines.map { "signup-rpc replay: \($0)\n" }.joined() + text
    }

    static func encode(_ json: JSON) -> String {
        var writer = JSONWriter()
        writer.json(json)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    static func describe(_ question: BackendQuestion) -> String {
        var writer = JSONWriter()
        writer.object { BackendExchangeJSON.write(question, to: &$0) }
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    static func describe(_ entry: Recording.Entry) -> String {
        func json(_ body: (inout JSONWriter) -> Void) -> String {
            var writer = JSONWriter()
            writer.object(body)
            return writer.withBytes { String(decoding: $0, as: UTF8.self) }
        }
        switch entry {
        case .input(let time, .message(let message)): return "\(time) ms  in      \(encode(message))"
        case .input(let time, .text(let bytes)): return "\(time) ms  in      \(String(decoding: bytes.prefix(200), as: UTF8.self))"
        case .input(let time, .oversize): return "\(time) ms  in      (a line over the limit)"
        case .output(let time, let message): return "\(time) ms  out     \(encode(message))"
        case .ask(let time, let number, let question): return "\(time) ms  ask #\(number) \(describe(question))"
        case .answer(let time, let number, let answer):
            return "\(time) ms  answer #\(number) " + json { BackendExchangeJSON.write(answer, to: &$0) }
        case .cancel(let time, let number): return "\(time) ms  cancel #\(number)"
        case .end(let time, let reason): return "\(time) ms  end (\(reason))"
        }
    }
}
