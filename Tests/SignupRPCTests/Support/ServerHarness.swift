import SignupBackends
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// Collects what the server sends, one line per message.
final class CollectingSink: MessageSink {
    private(set) var lines: [String] = []

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        lines.append(String(decoding: message, as: UTF8.self))
    }

    func take() -> [String] {
        defer { lines.removeAll() }
        return lines
    }
}

/// A server on a virtual clock, driven in process line by line.
final class ServerHarness {
    let sink = CollectingSink()
    let scheduler = VirtualTimeScheduler()
    let server: Server

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
        server = Self.server(on: scheduler, sendingTo: sink, configure: configure)
    }

    /// A server on the virtual clock `scheduler`, with the scripted directory, the built-in kinds
    /// and those `configure` adds, sending to `sink`.
    static func server(
        on scheduler: VirtualTimeScheduler, sendingTo sink: any MessageSink, configure: (inout ServerConfiguration) -> Void
    ) -> Server {
        var configuration = ServerConfiguration()
        configuration.clock = .virtual
        configuration.logLevel = .error
        configure(&configuration)
        let directory = ScriptedDirectory(script: configuration.script, scheduler: scheduler)
        return Server(configuration: configuration, clock: .virtual(scheduler),
                      services: FormServices(directory: directory), sink: sink,
                      catalog: FormCatalog(definitions: FormCatalog.builtIn.definitions + configuration.customForms))
    }

    /// Sends one line (bytes as given) as the stdin reader hands it over, and returns every
    /// message the server sent because of it.
    func send(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBufferPointer { server.handle(MessageDecoder(maxDepth: server.configuration.limits.maxDepth).item($0)) }
        return sink.take()
    }

    func send(_ line: String) -> [String] {
        send(Array(line.utf8))
    }

    /// Sends a line and returns only its response (the last message), dropping events.
    func respond(_ line: String) -> String? {
        send(line).last
    }
}
