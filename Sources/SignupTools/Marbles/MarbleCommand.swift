import Foundation
import SignupCore
import SignupProtocol
import SignupServer

/// `signup-marbles FILE [--from MS] [--to MS] [--output FILE.svg]`: draws a session as a marble
/// diagram in SVG. FILE is a recording (`--record`), or a fixture (`X.jsonl`, run with the flags
/// of `X.flags` beside it, recorded in process; when `X.out.jsonl` is there, the run must match it).
public enum MarbleCommand {
    package static let usage = """
        usage: signup-marbles FILE [--from MS] [--to MS] [--output FILE.svg]

        Draws a session as a marble diagram in SVG, on stdout or in the --output file.
        FILE is a recording (signup-rpc --record) or a fixture X.jsonl (run with X.flags, and
        checked against X.out.jsonl when present). --from and --to window a long session
        (virtual or recorded milliseconds).

        """

    public static func run(_ arguments: [String]) -> Never {
        var file: String?
        var from: Int64?
        var to: Int64?
        var output: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                FileHandle.standardOutput.write(Data(usage.utf8))
                exit(0)
            case "--from", "--to":
                guard let text = rest.popFirst(), let value = Int64(text), (0...Recording.latestTime).contains(value) else {
                    fail("\(argument) needs a whole number of milliseconds from 0 to \(Recording.latestTime)", exitCode: 64)
                }
                if argument == "--from" { from = value } else { to = value }
            case "--output", "-o":
                guard let path = rest.popFirst() else { fail("\(argument) needs a file", exitCode: 64) }
                output = path
            default:
                guard !argument.hasPrefix("-"), file == nil else { fail("unexpected argument '\(argument)'", exitCode: 64) }
                file = argument
            }
        }
        guard let file else { fail("needs a recording or a fixture", exitCode: 64) }
        if let from, let to, to <= from { fail("--to must be after --from", exitCode: 64) }
        let svg: String
        do throws(Problem) {
            svg = try render(file: file, from: from, to: to)
        } catch {
            fail(error.description, exitCode: error.exitCode)
        }
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: Data(svg.utf8)) else {
                fail("cannot write \(output)", exitCode: 73)
            }
        } else {
            FileHandle.standardOutput.write(Data(svg.utf8))
        }
        exit(0)
    }

    package struct Problem: Error, CustomStringConvertible {
        package var description: String
        var exitCode: Int32
    }

    /// The SVG of `file`, a recording or a fixture.
    static func render(file: String, from: Int64?, to: Int64?) throws(Problem) -> String {
        let recording = try self.recording(of: file)
        var secretFields = Set(FormCatalog.builtIn.definitions.flatMap { $0.fields.filter(\.isSecret).map(\.name) })
        if let configuration = try? Replayer.configuration(for: recording.header) {
            secretFields.formUnion(configuration.customForms.flatMap { $0.fields.filter(\.isSecret).map(\.name) })
        }
        let diagram = MarbleDiagram(recording, from: from, to: to, secretFields: secretFields)
        let name = (file as NSString).lastPathComponent
        return MarbleSVG(diagram: diagram, title: "\(name) — \(MarbleSVG.timeLabel(diagram.from)) to \(MarbleSVG.timeLabel(diagram.to))").render()
    }

    /// The recording in `file`, or the recording of the fixture in `file`.
    package static func recording(of file: String) throws(Problem) -> Recording {
        guard let contents = FileManager.default.contents(atPath: file) else {
            throw Problem(description: "cannot read '\(file)'", exitCode: 66)
        }
        var bytes = Array(contents)
        if !contents.starts(with: Data(#"{"signupRecording""#.utf8)) {
            let stem = file.hasSuffix(".jsonl") ? String(file.dropLast(".jsonl".count)) : file
            let flags = (try? String(contentsOfFile: stem + ".flags", encoding: .utf8))?
                .split(whereSeparator: \.isWhitespace).map(String.init) ?? []
            let run: FixtureRun
            do throws(FixtureRun.Problem) {
                run = try FixtureRun(input: bytes, flags: flags, recording: true)
            } catch {
                throw Problem(description: "\(file): \(error.description)", exitCode: 65)
            }
            if let expected = FileManager.default.contents(atPath: stem + ".out.jsonl") {
                let produced: [UInt8] = run.output.flatMap { message in message + [UInt8(0x0A)] }
                if produced != Array(expected) {
                    throw Problem(description: "\(file): its run differs from \(stem).out.jsonl; regenerate that first", exitCode: 65)
                }
            }
            bytes = run.recording
        }
        do throws(Recording.Problem) {
            return try Recording.read(bytes)
        } catch {
            throw Problem(description: "\(file): \(error.description)", exitCode: 65)
        }
    }

    private static func fail(_ message: String, exitCode: Int32) -> Never {
        FileHandle.standardError.write(Data("signup-marbles: \(message)\n".utf8))
        exit(exitCode)
    }
}
