import Foundation
import SignupBackends
import SignupCore
import SignupFormFiles
import SignupProtocol
import SignupTransport

/// What `signup-rpc` takes from the tools beside the server (`SignupTools`), which the
/// executable hands it: the recorder for `--record`, `replay`, and `validate`.
package struct ServerTools: Sendable {
    package var makeRecorder: SessionMirrorMaker
    package var replay: @Sendable (_ recording: String, _ fixture: String?) -> Never
    package var validate: @Sendable (_ request: ValidateRequest) -> Never

    package init(makeRecorder: @escaping SessionMirrorMaker,
                 replay: @escaping @Sendable (_ recording: String, _ fixture: String?) -> Never,
                 validate: @escaping @Sendable (_ request: ValidateRequest) -> Never) {
        self.makeRecorder = makeRecorder
        self.replay = replay
        self.validate = validate
    }
}

/// The `signup-rpc` program: parses the command line, sets up stdio, and serves until the end.
package enum SignupRPCCommand {
    /// Runs the program with `arguments` (without the program name); never returns.
    package static func run(_ arguments: [String], tools: ServerTools) -> Never {
        // Before any thread starts, so that every thread inherits the mask (see TerminationSignals).
        TerminationSignals.block()
        StdoutGuard.ignoreSIGPIPE()
        let invocation: Invocation
        do throws(UsageError) {
            invocation = try Options.parse(arguments)
        } catch {
            fail("\(error.description)\n\n\(Options.usage)", exitCode: 64)
        }

        switch invocation {
        case .help:
            FileHandle.standardOutput.write(Data(Options.usage.utf8))
            exit(0)
        case .version:
            FileHandle.standardOutput.write(Data("\(Server.name) \(Server.version) (protocol \(Server.protocolVersion))\n".utf8))
            exit(0)
        case .replay(let recording, let fixture):
            tools.replay(recording, fixture)
        case .validate(let request):
            tools.validate(request)
        case .schemas(let directory, let check):
            SchemasCommand.run(directory: directory, check: check)
        case .run(var configuration, let directoryFile, let formsFolder, let tracePath, let recordPath, let listen):
            if let tracePath {
                guard let fd = OutputFile.create(atPath: tracePath) else {
                    fail("cannot create the trace file '\(tracePath)': \(OutputFile.reason(for: errno))", exitCode: 73)
                }
                configuration.traceFile = fd
            }
            if let recordPath, listen == nil {
                guard let fd = OutputFile.create(atPath: recordPath) else {
                    fail("cannot create the recording '\(recordPath)': \(OutputFile.reason(for: errno))", exitCode: 73)
                }
                configuration.recordFile = fd
            }
            do throws(LoadProblem) {
                try load(directoryFile: directoryFile, formsFolder: formsFolder, into: &configuration)
            } catch {
                fail(error.message, exitCode: error.exitCode)
            }
            if case .http = configuration.backend, let reason = HTTPDirectory.unavailableReason {
                fail(reason, exitCode: 69)
            }
            if let listen {
                serve(configuration, listeningOn: listen, recordings: recordPath.map(RecordingFiles.init), tools: tools)
            }
            serve(configuration, tools: tools)
        }
    }

    /// A file the command line names that cannot be used.
    package struct LoadProblem: Error {
        package var message: String
        package var exitCode: Int32
    }

    /// Reads the `--directory` file and the `--forms` folder into the configuration.
    package static func load(directoryFile: String?, formsFolder: String?, into configuration: inout ServerConfiguration) throws(LoadProblem) {
        if let directoryFile {
            guard let contents = FileManager.default.contents(atPath: directoryFile) else {
                throw LoadProblem(message: "cannot read the directory file '\(directoryFile)'", exitCode: 66)
            }
            do throws(DirectoryFile.Problem) {
                configuration.script = try DirectoryFile.parse(Array(contents))
            } catch {
                throw LoadProblem(message: "\(directoryFile): \(error.description)", exitCode: 78)
            }
        }
        if let formsFolder {
            do throws(FormFile.Problem) {
                let loaded = try FormFile.loadFolderWithDocuments(formsFolder, builtInKinds: FormCatalog.builtIn.kinds)
                configuration.customForms = loaded.map(\.definition)
                configuration.customFormDocuments = loaded.map(\.document)
            } catch {
                throw LoadProblem(message: error.description, exitCode: 78)
            }
        }
    }

    /// What a person who started the server at a terminal reads on stderr, rather than silence.
    static let terminalGreeting = """
        signup-rpc \(Server.version): reading JSON-RPC 2.0 messages from stdin, one per line (see protocol.md).
        Try: {"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"alice"}}
        End input with Ctrl-D; stop with Ctrl-C. signup-rpc --help lists the options.

        """

    private static func serve(_ configuration: ServerConfiguration, tools: ServerTools) -> Never {
        if isatty(STDIN_FILENO) == 1 { FileHandle.standardError.write(Data(terminalGreeting.utf8)) }
        let messageFD = StdoutGuard.takeOverStdout()
        run(configuration, sessionsHaveTheirOwnClock: false, tools: tools) { $0.serveStdio(messageFD: messageFD) }
    }

    /// Serves every client that connects to `address`; stdin is not read, stdout carries nothing.
    private static func serve(_ configuration: ServerConfiguration, listeningOn address: ListenAddress,
                              recordings: RecordingFiles?, tools: ServerTools) -> Never {
        _ = StdoutGuard.takeOverStdout()
        let listener: Listener
        let poller: SocketPoller
        do throws(Listener.Problem) {
            listener = try Listener(address)
        } catch {
            fail(error.description, exitCode: 69)
        }
        do throws(SocketPoller.PollerError) {
            poller = try SocketPoller()
        } catch {
            fail(error.description, exitCode: 69)
        }
        raiseDescriptorLimit(toServe: configuration.maxConnections)
        FileHandle.standardError.write(Data("signup-rpc: listening on \(listener.address)\n".utf8))
        run(configuration, sessionsHaveTheirOwnClock: true, tools: tools) {
            $0.serve(listener, polledBy: poller, recordings: recordings)
        }
    }

    /// Raises the soft descriptor limit to the hard one, as a connection takes a descriptor; says
    /// on stderr when even that leaves too few for `connections` (more then wait to be accepted).
    private static func raiseDescriptorLimit(toServe connections: Int) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            if setrlimit(resource, &limit) != 0 { _ = getrlimit(resource, &limit) }
        }
        // The store, the trace, recordings and libcurl's sockets take some besides.
        let needed = rlim_t(connections) + 64
        guard limit.rlim_cur != rlim_t.max, limit.rlim_cur < needed else { return }
        FileHandle.standardError.write(Data(
            "signup-rpc: warning: the descriptor limit (\(limit.rlim_cur), ulimit -n) is too low for --max-connections \(connections); connections past it wait to be accepted until others close\n".utf8))
    }

    /// Opens the store and starts serving on the loop; the process ends by exit() from the loop.
    private static func run(_ configuration: ServerConfiguration, sessionsHaveTheirOwnClock: Bool, tools: ServerTools,
                            _ start: @escaping @Sendable (ServerProcess) -> Void) -> Never {
        let loop = EventLoop()
        let settings = UncheckedTransfer(configuration)
        loop.execute {
            do throws(StoreError) {
                start(try ServerProcess(configuration: settings.value, loop: loop, sessionsHaveTheirOwnClock: sessionsHaveTheirOwnClock,
                                        makeMirror: tools.makeRecorder))
            } catch {
                // A database that cannot be reached is a service unavailable (69), not a file error.
                if case .databaseUnreachable = error { fail(error.description, exitCode: 69) }
                fail(error.description, exitCode: 74)
            }
        }
        // The loop and the reading threads do the work.
        while true { sleep(3600) }
    }

    package static func fail(_ message: String, exitCode: Int32) -> Never {
        FileHandle.standardError.write(Data("signup-rpc: \(message)\n".utf8))
        exit(exitCode)
    }
}
