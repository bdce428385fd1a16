import Foundation

/// The end-to-end figures: `signup-rpc` as a subprocess against `signup-echo` over the same input.
struct EndToEnd {
    let rpc: String
    let echo: String
    let folder: URL
    let runs: Int
    /// Added to every run of `rpc`: a build with check budgets runs without them, since one
    /// benchmark session asks far more checks a minute than a person (the work then matches a
    /// build from before budgets, which `--rpc` may measure).
    let rpcOptions: [String]
    /// The fixed baseline build (`FixedBaseline`), run beside `rpc` in figure 1, with its options.
    var baseline: (rpc: String, options: [String])?

    /// A subprocess run over an input file.
    struct Command {
        let executable: String
        let arguments: [String]
        let file: String
    }

    /// Seconds for `command` to read its file and write all its output to a drained pipe, and the
    /// CPU seconds (user and system) it used meanwhile.
    func seconds(_ command: Command) throws -> (seconds: Double, cpuSeconds: Double, lines: Int) {
        let start = now()
        let child = try ChildProcess(command.executable, command.arguments, inputFile: command.file)
        let lines = child.drain().lines
        let status = child.wait()
        guard status == 0 else { throw BenchError.unexpected("\(command.executable) exited \(status)") }
        return (Double(now() - start) / 1e9, child.cpuSeconds, lines)
    }

    /// `runs` timings of each of `commands`, taken in turn (first, second, …, first, second, …)
    /// so that a slow phase of the host falls on all of them alike: wall and CPU seconds, and each
    /// one's output lines.
    func alternatingRuns(of commands: [Command]) throws -> (seconds: [[Double]], cpuSeconds: [[Double]], lines: [Int]) {
        var seconds = Array(repeating: [Double](), count: commands.count)
        var cpuSeconds = seconds
        var lines = Array(repeating: 0, count: commands.count)
        for _ in 0..<runs {
            for (index, command) in commands.enumerated() {
                let run = try self.seconds(command)
                seconds[index].append(run.seconds)
                cpuSeconds[index].append(run.cpuSeconds)
                lines[index] = run.lines
            }
        }
        return (seconds, cpuSeconds, lines)
    }

    /// Median seconds through `signup-rpc --clock virtual`, through the echo, and through
    /// `signup-rpc` again with the same messages in LSP's framing, their runs alternating, for
    /// `edits` edits spread at random over `forms` new forms; and the input messages. `lsp` is nil
    /// for a build that does not answer LSP framing in kind (one from before it, measured with `--rpc`).
    /// Also through `signup-rpc --record` to a file (`recorded`: median wall seconds, and median
    /// CPU seconds beside the unrecorded run's), for a build that records (nil for one from
    /// before `--record`), and through `--trace` to a file (`traced`, the same way).
    func throughput(edits: Int, forms: Int) throws -> Throughput {
        var workload = Workload()
        workload.open(forms)
        workload.edit(edits, forms: forms, fields: Workload.signupFields)
        let file = try workload.write(named: "throughput-\(forms)-\(edits).jsonl", in: folder)
        let framed = try workload.write(named: "throughput-\(forms)-\(edits).lsp", in: folder, lspFramed: true)
        let recording = folder.appendingPathComponent("throughput-recording.jsonl").path
        let trace = folder.appendingPathComponent("throughput-trace.jsonl").path
        defer { for path in [file, framed, recording, trace] { try? FileManager.default.removeItem(atPath: path) } }
        let help = try Self.helpText(of: rpc)
        let records = help.contains("--record")
        var commands = [
            Command(executable: rpc, arguments: ["--clock", "virtual"] + rpcOptions, file: file),
            Command(executable: echo, arguments: [], file: file),
            Command(executable: rpc, arguments: ["--clock", "virtual"] + rpcOptions, file: framed),
        ]
        if records { commands.append(Command(executable: rpc, arguments: ["--clock", "virtual", "--record", recording] + rpcOptions, file: file)) }
        let tracedAt = help.contains("--trace") ? commands.count : nil
        if tracedAt != nil { commands.append(Command(executable: rpc, arguments: ["--clock", "virtual", "--trace", trace] + rpcOptions, file: file)) }
        let baselineAt = baseline.map { _ in commands.count }
        if let baseline { commands.append(Command(executable: baseline.rpc, arguments: ["--clock", "virtual"] + baseline.options, file: file)) }
        let timings = try alternatingRuns(of: commands)
        if let baselineAt, timings.lines[baselineAt] != timings.lines[0] {
            throw BenchError.unexpected("the baseline build wrote \(timings.lines[baselineAt]) lines, this build \(timings.lines[0])")
        }
        // Each framed answer's header holds two line ends: the same answers, framed, say it did.
        let answeredInKind = timings.lines[2] == 2 * timings.lines[0]
        let recorded = records
            ? Recorded(seconds: median(timings.seconds[3]), cpuSeconds: median(timings.cpuSeconds[3]), plainCPUSeconds: median(timings.cpuSeconds[0]))
            : nil
        let traced = tracedAt.map {
            Recorded(seconds: median(timings.seconds[$0]), cpuSeconds: median(timings.cpuSeconds[$0]), plainCPUSeconds: median(timings.cpuSeconds[0]))
        }
        return Throughput(
            rpc: median(timings.seconds[0]), echo: median(timings.seconds[1]), lsp: answeredInKind ? median(timings.seconds[2]) : nil,
            recorded: recorded, traced: traced, baseline: baselineAt.map { median(timings.seconds[$0]) }, lines: workload.lines.count)
    }

    /// Figure 1's median seconds: this build, the echo, LSP framing (nil when not answered in
    /// kind), recorded, traced, and the fixed baseline build (nil when not run); and the input lines.
    struct Throughput {
        let rpc: Double
        let echo: Double
        let lsp: Double?
        let recorded: Recorded?
        let traced: Recorded?
        let baseline: Double?
        let lines: Int
    }

    /// A recorded (or traced) run's median wall and CPU seconds, and the same run's CPU seconds without.
    struct Recorded {
        let seconds: Double
        let cpuSeconds: Double
        let plainCPUSeconds: Double

        /// What recording costs in CPU time, user and system together: what the target bounds.
        var cpuRatio: Double { cpuSeconds / plainCPUSeconds }
    }

    /// What `executable --help` prints. Its input ends at once, so a program that reads its
    /// input instead of answering `--help` ends too rather than hold the benchmark.
    static func helpText(of executable: String) throws -> String {
        let child = try ChildProcess(executable, ["--help"])
        child.closeInput()
        var text = ""
        while let line = child.readLine() { text += String(decoding: line, as: UTF8.self) + "\n" }
        _ = child.wait()
        return text
    }

    /// What `edits` edits cost through `signup-rpc --clock virtual` and how many output lines they
    /// add, each per edit: `workload(edits)` against `workload(0)`, which must set up the same
    /// forms. The two run in turn and each pair's difference counts, so start-up, opening the
    /// forms and the host's slow phases cancel out; the median of the pairs is taken.
    func costPerEdit(edits: Int, arguments: [String], name: String, workload: (_ edits: Int) -> Workload
    ) throws -> (nanoseconds: Double, lines: Double) {
        var files: [String] = []
        defer { for file in files { try? FileManager.default.removeItem(atPath: file) } }
        for count in [edits, 0] {
            files.append(try workload(count).write(named: "\(name)-\(count).jsonl", in: folder))
        }
        let timings = try alternatingRuns(of: files.map { Command(executable: rpc, arguments: ["--clock", "virtual"] + arguments + rpcOptions, file: $0) })
        let differences = zip(timings.seconds[0], timings.seconds[1]).map { $0 - $1 }
        return (median(differences) * 1e9 / Double(edits), Double(timings.lines[0] - timings.lines[1]) / Double(edits))
    }

    func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// What takes turns with signup-rpc in `latencies`: the raw echo, or a plain JSON-lines loop
    /// doing signup-rpc's work.
    enum Peer {
        case echo
        case loop(JSONLinesLoop)
    }

    /// Round trips of one `form.edit` request at a time, `count` each, signup-rpc (with
    /// `arguments`) and each of `peers` taking turns trip by trip so that a busy phase of the host
    /// lands on all alike; nanoseconds, sorted, for signup-rpc and for each peer.
    func latencies(_ arguments: [String], count: Int, beside peers: [Peer]) throws -> (rpc: [UInt64], peers: [[UInt64]]) {
        // Each child, and whether it only echoes (then it is sent no `form.open` and answers with the line itself).
        let children = try [(ChildProcess(rpc, arguments + rpcOptions), false)] + peers.map { peer in
            switch peer {
            case .echo: (try ChildProcess(echo, []), true)
            case .loop(let loop): (try ChildProcess(loop.executable, loop.arguments), false)
            }
        }
        defer {
            for (child, _) in children {
                child.closeInput()
                _ = child.drain()
                child.wait()
            }
        }
        let open = Array(#"{"jsonrpc":"2.0","id":0,"method":"form.open","params":{"form":"l"}}"#.utf8) + [0x0A]
        for (child, isEcho) in children where !isEcho {
            child.send(open)
            try awaitAnswer(child, id: 0)
        }
        var samples = children.map { _ in [UInt64]() }
        for index in samples.indices { samples[index].reserveCapacity(count) }
        let warmUp = min(1000, count / 10)
        for index in 1...(count + warmUp) {
            let value = index % 2 == 0 ? "abc" : "abcdef"
            let line = Array(#"{"jsonrpc":"2.0","id":\#(index),"method":"form.edit","params":{"form":"l","field":"password","value":"\#(value)"}}"#.utf8)
            for (number, (child, isEcho)) in children.enumerated() {
                let start = now()
                child.send(line + [0x0A])
                if isEcho {
                    guard child.readLine().map(Array.init) == line else { throw BenchError.unexpected("the echo did not echo") }
                } else {
                    try awaitAnswer(child, id: index)
                }
                if index > warmUp { samples[number].append(now() - start) }
            }
        }
        let sorted = samples.map { $0.sorted() }
        return (sorted[0], Array(sorted.dropFirst()))
    }

    /// Reads lines until the response to request `id`.
    func awaitAnswer(_ child: ChildProcess, id: Int) throws {
        let prefix = Array(#"{"jsonrpc":"2.0","id":\#(id),"#.utf8)
        while let line = child.readLine() {
            if line.starts(with: prefix) { return }
        }
        throw BenchError.unexpected("\(child.executable) ended before answering request \(id)")
    }

    /// Nanoseconds from spawning to the first answer, sorted: `initialize` for `rpc`, a line for
    /// the echo; `count` spawns of each, taking turns.
    func startUps(count: Int) throws -> (rpc: [UInt64], echo: [UInt64]) {
        var samples: (rpc: [UInt64], echo: [UInt64]) = ([], [])
        for _ in 0..<count {
            samples.rpc.append(try startUp(rpc, isEcho: false))
            samples.echo.append(try startUp(echo, isEcho: true))
        }
        return (samples.rpc.sorted(), samples.echo.sorted())
    }

    private func startUp(_ executable: String, isEcho: Bool) throws -> UInt64 {
        let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.utf8) + [0x0A]
        let start = now()
        let child = try ChildProcess(executable, [])
        child.send(line)
        if isEcho { _ = child.readLine() } else { try awaitAnswer(child, id: 1) }
        let elapsed = now() - start
        child.closeInput()
        _ = child.drain()
        child.wait()
        return elapsed
    }

    /// Peak and current RSS after opening `forms` forms, then after `edits` edits over them.
    func memory(_ executable: String, _ arguments: [String], forms: Int, edits: Int) throws
        -> (afterOpening: (peak: Int, current: Int), afterEditing: (peak: Int, current: Int)) {
        var opening = Workload()
        opening.open(forms)
        opening.append(#"{"jsonrpc":"2.0","id":"opened","method":"clock.advance","params":{"by":0}}"#)
        var editing = Workload()
        editing.edit(edits, forms: forms, fields: Workload.signupFields)
        editing.append(#"{"jsonrpc":"2.0","id":"edited","method":"clock.advance","params":{"by":0}}"#)
        let child = try ChildProcess(executable, arguments)
        let proceed = DispatchSemaphore(value: 0)
        let sent = DispatchSemaphore(value: 0)
        // Input stays open until both readings are taken: at end of input the child exits, and
        // /proc would have nothing to read.
        let sender = Thread { [opening = opening.bytes, editing = editing.bytes] in
            child.send(opening)
            proceed.wait()
            child.send(editing)
            sent.signal()
        }
        sender.start()
        func awaitLine(containing marker: String) throws {
            let needle = Array(marker.utf8)
            while let line = child.readLine() {
                if line.firstRange(of: needle) != nil { return }
            }
            throw BenchError.unexpected("\(executable) ended early")
        }
        try awaitLine(containing: #""id":"opened""#)
        let afterOpening = child.memory()
        proceed.signal()
        try awaitLine(containing: #""id":"edited""#)
        let afterEditing = child.memory()
        sent.wait()
        child.closeInput()
        guard afterOpening.peak > 0, afterEditing.peak > 0 else {
            throw BenchError.unexpected("could not read /proc/\(child.pid)/status")
        }
        _ = child.drain()
        child.wait()
        return (afterOpening, afterEditing)
    }
}
