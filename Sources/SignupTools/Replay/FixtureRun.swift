import SignupCore
import SignupProtocol
import SignupServer

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
        guard case .run(var configuration, let directoryFile, let formsFolder, _, _, _) = invocation else {
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
        let server = InProcessServer(configuration: configuration, recording: recording)
        input.withUnsafeBufferPointer { server.feed($0) }
        server.finish()
        let exited = server.exitCode != nil
        output = server.session.messages
        self.recording = recording ? server.session.recording(endingWith: exited ? "exit" : "input") : []
    }
}
