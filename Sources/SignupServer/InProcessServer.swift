import SignupCore

/// A virtual-clock server driven in process, byte for byte as stdin would be, for the fuzzer and
/// benchmarks: bytes in, the exact bytes signup-rpc would have written out.
public final class InProcessServer {
    private let server: Server
    private let sink = BufferSink()
    /// Either framing, as the input's first bytes say; the output stays one message per line.
    private var splitter: InputFramer
    private var items: [InputItem] = []

    /// A server with the built-in scripted directory on a virtual clock, with the given debounce.
    public init(debounceMilliseconds: Int64 = 300) {
        var configuration = ServerConfiguration()
        configuration.clock = .virtual
        configuration.debounce = .milliseconds(debounceMilliseconds)
        configuration.logLevel = .error
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: configuration.script, scheduler: scheduler, recordsRequests: false)
        server = Server(configuration: configuration, clock: .virtual(scheduler),
                        services: FormServices(directory: directory), sink: sink)
        splitter = InputFramer(
            choice: FramingChoice(.auto), maxLineBytes: configuration.limits.maxLineBytes, editsMaxDepth: configuration.limits.maxDepth,
            fieldNames: KnownFieldNames(server.catalog))
    }

    deinit {
        // Open forms keep each other alive through their subscriptions until closed.
        server.closeAllForms()
    }

    /// Feeds input bytes; complete lines are handled at once.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        splitter.feed(bytes, into: &items)
        drain()
    }

    /// Ends the input as end of file does: a partial last line is answered, the clock runs to idle.
    public func finish() {
        splitter.finish(into: &items)
        drain()
        if server.exitCode == nil { server.runToIdle() }
    }

    /// Everything written so far, one message per line.
    public var output: [UInt8] { sink.bytes }

    /// The exit code requested by `exit`, if any.
    public var exitCode: Int32? { server.exitCode }

    private func drain() {
        for item in items where server.exitCode == nil {
            server.handle(item)
        }
        items.removeAll(keepingCapacity: true)
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

/// Collects output bytes in memory.
private final class BufferSink: MessageSink {
    private(set) var bytes: [UInt8] = []

    func send(_ message: UnsafeRawBufferPointer, conflationKey: @autoclosure () -> ConflationKey?) {
        bytes.append(contentsOf: message)
        bytes.append(0x0A)
    }
}
