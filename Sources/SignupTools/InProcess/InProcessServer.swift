import SignupBackends
import SignupCore
import SignupProtocol
import SignupServer
import SignupTransport

/// A virtual-clock server driven in process, byte for byte as stdin would be, for the fuzzer and
/// benchmarks: bytes in, the exact bytes signup-rpc would have written out.
public final class InProcessServer {
    package let session: InProcessSession
    /// Either framing, as the input's first bytes say; the output stays one message per line.
    private var splitter: InputFramer
    private let decoder: MessageDecoder

    /// A server with the built-in scripted directory on a virtual clock, with the given debounce,
    /// recording itself as `--record` does when `recording`.
    public convenience init(debounceMilliseconds: Int64 = 300, recording: Bool = false) {
        var configuration = ServerConfiguration()
        configuration.clock = .virtual
        configuration.debounce = .milliseconds(debounceMilliseconds)
        configuration.logLevel = .error
        self.init(configuration: configuration, recording: recording)
    }

    /// A server as `configuration` says, on its scripted directory (virtual clock only).
    package init(configuration: ServerConfiguration, recording: Bool) {
        let script = configuration.script
        let tokens = configuration.clock.tokens(seed: script.seed)
        session = InProcessSession(configuration: configuration, services: { scheduler in
            FormServices(directory: ScriptedDirectory(script: script, scheduler: scheduler, tokens: tokens, recordsRequests: false))
        }, recording: recording)
        splitter = InputFramer(choice: FramingChoice(configuration.framing), maxLineBytes: configuration.limits.maxLineBytes)
        decoder = MessageDecoder(maxDepth: configuration.limits.maxDepth, fieldNames: KnownFieldNames(session.server.catalog))
    }

    /// Feeds input bytes; complete lines are handled at once.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var messages = newMessages()
        splitter.feed(bytes, into: &messages)
        drain(messages)
    }

    /// Ends the input as end of file does: a partial last line is answered, the clock runs to idle.
    public func finish() {
        var messages = newMessages()
        splitter.finish(into: &messages)
        drain(messages)
        if session.server.exitCode == nil { session.server.runToIdle() }
    }

    /// Where a feed's messages are decoded, their plain edits' lines kept for the recording as
    /// stdin's reader keeps them.
    private func newMessages() -> DecodedMessages {
        DecodedMessages(decoder, keepingEditsIn: session.recorder == nil ? nil : KeptEditLines())
    }

    /// Everything written so far, one message per line.
    public var output: [UInt8] { session.output }

    /// The recording so far, ended as end of input ends it; empty for a server not recording.
    public func recording() -> [UInt8] {
        session.recording(endingWith: "end of input")
    }

    /// Why `bytes` is not a recording `replay` can read, or nil when it is.
    public static func recordingProblem(in bytes: [UInt8]) -> String? {
        do throws(Recording.Problem) {
            _ = try Recording.read(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    /// The exit code requested by `exit`, if any.
    public var exitCode: Int32? { session.server.exitCode }

    private func drain(_ messages: consuming DecodedMessages) {
        if let kept = messages.kept { session.recorder?.willTake(kept) }
        for item in messages.items { session.handle(item) }
    }

    /// Checks that output is what a client can rely on: every line one JSON object from JSON-RPC
    /// 2.0. Returns a description of the first violation.
    public static func violation(in output: [UInt8]) -> String? {
        for line in output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let bytes = Array(line)
            let message: JSON
            do throws(JSONParseError) {
                message = try JSONParser.parse(bytes, maxDepth: 1000)
            } catch {
                return "output line is not JSON (\(error.description)): \(String(decoding: bytes.prefix(200), as: UTF8.self))"
            }
            let objects: [JSON] = if case .array(let elements) = message { elements } else { [message] }
            for object in objects where object["jsonrpc"] != .string("2.0") {
                return "output message without jsonrpc 2.0: \(String(decoding: bytes.prefix(200), as: UTF8.self))"
            }
        }
        if let last = output.last, last != 0x0A { return "output does not end with a newline" }
        return nil
    }
}
