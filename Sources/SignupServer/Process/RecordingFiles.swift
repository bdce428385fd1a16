import Foundation
import SignupTransport

/// `--record PATH` under `--listen`: one recording per connection, numbered from 1 in the order
/// they connect — `session.jsonl` gives `session-1.jsonl`, `session-2.jsonl`, …
struct RecordingFiles {
    let path: String

    /// The path of connection `number`'s recording.
    func path(number: Int) -> String {
        let name = (path as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(path)-\(number)" }
        let directory = String(path.dropLast(name.utf8.count))
        return "\(directory)\(name[..<dot])-\(number)\(name[dot...])"
    }

    /// Creates connection `number`'s recording; nil, said on stderr, when it cannot be created
    /// (the connection is then refused, as a process would not start).
    func create(number: Int, logger: Logger) -> Int32? {
        let path = path(number: number)
        guard let fd = OutputFile.create(atPath: path) else {
            logger.error("cannot create the recording '\(path)': \(OutputFile.reason(for: errno)); connection \(number) refused")
            return nil
        }
        return fd
    }
}
