import Foundation

/// A form kind with many remotely checked fields, so each form can hold many pending debounce
/// timers at once (with a debounce longer than the run, every edited field keeps one).
enum TimerForm {
    /// Writes the `timers` kind with `fields` fields into a new folder and returns the folder.
    static func write(fields: Int, in parent: URL) throws -> String {
        let folder = parent.appendingPathComponent("timers-\(fields)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func message(_ code: String) -> String { #"{"code":"\#(code)","message":"\#(code)"}"# }
        let check = #"{"kind":"usernameAvailability","validating":\#(message("c")),"passed":\#(message("p")),"rejected":\#(message("r")),"unavailable":\#(message("u"))}"#
        let definitions = (0..<fields).map { #"{"name":"f\#($0)","remoteCheck":\#(check)}"# }.joined(separator: ",")
        let text = #"{"kind":"timers","fields":[\#(definitions)],"submit":{"action":"registerAccount","usernameField":"f0","passwordField":"f0","messages":{"taken":\#(message("t")),"refused":\#(message("x")),"unavailable":\#(message("u"))}}}"#
        try Data(text.utf8).write(to: folder.appendingPathComponent("timers.json"))
        return folder.path
    }
}
