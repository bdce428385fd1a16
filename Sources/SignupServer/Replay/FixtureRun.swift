import SignupCore

/// A fixture (`X.jsonl`, with the flags of `X.flags`) run in process as
/// `signup-rpc --clock virtual FLAGS < X.jsonl` runs it, optionally recorded.
public struct FixtureRun {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every message the server wrote, each without its newline.
    public let output: [[UInt8]]
    /// The session's recording, when asked for.
    public let recording: [UInt8]

    public init(input: [UInt8], flags: [String], recording: Bool) throws(Problem) {
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try Options.parse(["--clock", "virtual"] + flags)
        } catch {
            throw Problem(description: error.description)
        }
        guard case .run(var configuration, let directoryFile, let formsFolder, _, _) = invocation else {
            throw Problem(description: "the flags do not run a server")
        }
        guard configuration.clock == .virtual, configuration.backend == .scripted else {
            throw Problem(description: "a fixture runs on the virtual clock and a scripted directory")
        }
        do throws(SignupRPCCommand.LoadProblem) {
            try SignupRPCCommand.load(directoryFile: directoryFile, formsFolder: formsFolder, into: &configuration)
        } catch {
            throw Problem(description: error.message)
        }
        configuration.logLevel = .error
        let script = configuration.script
        let tokens = configuration.clock.tokens(seed: script.seed)
        let session = InProcessSession(configuration: configuration, services: { scheduler in
            FormServices(directory: ScriptedDirectory(script: script, scheduler: scheduler, tokens: tokens, recordsRequests: false))
        }, recording: recording, formFiles: configuration.customFormDocuments)
        var framer = InputFramer(
            choice: FramingChoice(configuration.framing), maxLineBytes: configuration.limits.maxLineBytes,
            editsMaxDepth: configuration.limits.maxDepth, fieldNames: KnownFieldNames(session.server.catalog))
        var items: [InputItem] = []
        input.withUnsafeBufferPointer { framer.feed($0, into: &items) }
        framer.finish(into: &items)
        for item in items { session.handle(item) }
        let exited = session.server.exitCode != nil
        if !exited { session.server.runToIdle() }
        output = session.output
        self.recording = recording ? session.recording(endingWith: exited ? "exit" : "input") : []
    }
}
