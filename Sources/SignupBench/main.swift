import Foundation

// signup-bench: builds its own workloads, runs the release signup-rpc (and signup-echo, the
// baseline) as subprocesses, and prints one table. `swift run -c release signup-bench`;
// `--quick` divides every size by 10 for a smoke run; `--runs N` repeats timed runs (median; 5);
// `--rpc PATH` measures another signup-rpc build (such as one linked with --static-swift-stdlib);
// `--only 1,3` measures only the figures named; `--unpinned` leaves figure 2 to the scheduler.

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    FileHandle.standardOutput.write(Data(BenchCommandLine.usage.utf8))
    exit(0)
}
func usageError(_ problem: String) -> Never { BenchCommandLine.usageError(problem) }
let (quick, unpinned, values) = BenchCommandLine.parse(arguments)
if let runs = values["--runs"], (Int(runs) ?? 0) < 1 { usageError("--runs takes a whole number of 1 or more") }
let scale = quick ? 10 : 1

let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
func option(_ name: String) -> String? { values[name] }
let runs = option("--runs").flatMap { Int($0) } ?? 5
let only = option("--only").map { Set($0.split(separator: ",").compactMap { Int($0) }) }
func wanted(_ figure: Int) -> Bool { only?.contains(figure) ?? true }
func percentile(_ samples: [UInt64], _ fraction: Double) -> Double {
    Double(samples[min(samples.count - 1, Int(Double(samples.count) * fraction))])
}
let rpc = option("--rpc") ?? binaries.appendingPathComponent("signup-rpc").path
let echo = binaries.appendingPathComponent("signup-echo").path
for binary in [rpc, echo] where !FileManager.default.isExecutableFile(atPath: binary) {
    FileHandle.standardError.write(Data("signup-bench: \(binary) is missing; build with `swift build -c release`\n".utf8))
    exit(1)
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("signup-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func progress(_ text: String) {
    FileHandle.standardError.write(Data("signup-bench: \(text)\n".utf8))
}

let budgetsOff = try EndToEnd.helpText(of: rpc).contains("--session-checks-per-minute")
    ? ["--session-checks-per-minute", "0", "--store-checks-per-minute", "0"] : []
var bench = EndToEnd(rpc: rpc, echo: echo, folder: folder, runs: runs, rpcOptions: budgetsOff)
let baselineRPC = option("--baseline") ?? FixedBaseline.defaultPath(besides: binaries)
if FileManager.default.isExecutableFile(atPath: baselineRPC) {
    let options = try EndToEnd.helpText(of: baselineRPC).contains("--session-checks-per-minute") ? budgetsOff : []
    bench.baseline = (baselineRPC, options)
} else if option("--baseline") != nil {
    usageError("--baseline: \(baselineRPC) is not an executable")
}
if let other = option("--listen-baseline"), !FileManager.default.isExecutableFile(atPath: other) {
    usageError("--listen-baseline: \(other) is not an executable")
}
var rows: [Row] = [] {
    didSet { if let row = rows.last { progress("  \(row.figure): \(row.measured) (\(row.baseline), \(row.ratio))") } }
}

// 1. Throughput: 1 000 000 edits over 1 000 forms, virtual clock, scripted directory.
if wanted(1) {
    progress("throughput")
    let edits = 1_000_000 / scale
    let throughput = try bench.throughput(edits: edits, forms: 1000)
    let linesPerSecond = Double(throughput.lines) / throughput.rpc
    let echoSeconds = throughput.echo
    rows.append(Row(
        figure: "1. throughput, \(edits) edits / 1000 forms", measured: Report.rate(linesPerSecond, "lines"),
        baseline: "echo " + Report.rate(Double(throughput.lines) / echoSeconds, "lines"),
        ratio: Report.times(throughput.rpc / echoSeconds) + " echo time", target: "≥ 1 M lines/s, ≤ 3× echo",
        met: linesPerSecond >= 1e6 && throughput.rpc <= 3 * echoSeconds))
    rows.append(Row(
        figure: "1. the same in LSP framing",
        measured: throughput.lsp.map { Report.rate(Double(throughput.lines) / $0, "messages") } ?? "not framed in kind by this build",
        baseline: "line framing " + Report.rate(linesPerSecond, "lines"),
        ratio: throughput.lsp.map { Report.times($0 / throughput.rpc) + " line time" } ?? "—", target: "", met: nil))
    for (option, run, limit) in [("--record", throughput.recorded, "2"), ("--trace", throughput.traced, "1.5")] {
        rows.append(Row(
            figure: "1. the same with \(option) to a file",
            measured: run.map { Report.rate(Double(throughput.lines) / $0.seconds, "lines") } ?? "not offered by this build",
            baseline: "without " + Report.rate(linesPerSecond, "lines"),
            ratio: run.map { Report.times($0.cpuRatio) + " CPU, " + Report.times($0.seconds / throughput.rpc) + " wall" } ?? "—",
            target: "≤ \(limit)× CPU", met: run.map { $0.cpuRatio <= Double(limit)! }))
    }
    rows.append(Row(
        figure: "1. the same, fixed baseline \(FixedBaseline.commit)",
        measured: throughput.baseline.map { Report.rate(Double(throughput.lines) / $0, "lines") } ?? "not run (Scripts/build-baseline)",
        baseline: "this build " + Report.rate(linesPerSecond, "lines"),
        ratio: throughput.baseline.map { Report.times(throughput.rpc / $0) + " its time" } ?? "—",
        target: "≤ 1× its time", met: throughput.baseline.map { throughput.rpc <= $0 }))
    let secureEdits = 200_000 / scale
    if let secure = try bench.secureThroughput(edits: secureEdits, forms: 1000) {
        let ratio = secure.secure / secure.signup
        rows.append(Row(
            figure: "1. signup-secure, \(secureEdits) edits / 1000 forms", measured: Report.rate(Double(secure.lines) / secure.secure, "lines"),
            baseline: "signup " + Report.rate(Double(secure.lines) / secure.signup, "lines"),
            ratio: Report.times(ratio) + " signup time", target: "≤ 2× signup", met: ratio <= 2))
    } else {
        rows.append(Row(figure: "1. signup-secure", measured: "not offered by this build", baseline: "", ratio: "—", target: "", met: nil))
    }
    if let schema = try bench.schemaThroughput(edits: secureEdits, forms: 1000) {
        let ratio = schema.schema / schema.signup
        rows.append(Row(
            figure: "1. a sign-up read from a JSON Schema, \(secureEdits) edits", measured: Report.rate(Double(schema.lines) / schema.schema, "lines"),
            baseline: "signup " + Report.rate(Double(schema.lines) / schema.signup, "lines"),
            ratio: Report.times(ratio) + " signup time", target: "≤ 1.5× signup", met: ratio <= 1.5))
    } else {
        rows.append(Row(figure: "1. a sign-up read from a JSON Schema", measured: "not offered by this build", baseline: "", ratio: "—", target: "", met: nil))
    }
}

// 2. Latency: real clock, debounce 0, one edit at a time; on one CPU unless `--unpinned`.
if wanted(2) {
    progress("latency")
    let trips = 100_000 / scale
    let (loops, missing) = JSONLinesLoop.available()
    if !missing.isEmpty { progress("no \(missing.joined(separator: " or ")) on PATH: figure 2 leaves its JSON-lines loop out") }
    // Beside the echoes, then beside the loops: each comparison among the processes it compares,
    // since a loop's interpreter evicts from a shared CPU's caches what the next process needs.
    // The second echo is the control: near 1× the first when the turns treat every child alike.
    let measure = {
        let arguments = ["--clock", "real", "--debounce-ms", "0"]
        return (echoes: try bench.latencies(arguments, count: trips, beside: [.echo, .echo]),
                loops: loops.isEmpty ? nil : try bench.latencies(arguments, count: trips, beside: loops.map(EndToEnd.Peer.loop)))
    }
    let ((besideEchoes, besideLoops), cpu) = unpinned ? (try measure(), nil) : try OneCPU.run(measure)
    progress("  measured " + (cpu.map { "on CPU \($0), with every child" } ?? "wherever the scheduler put each process"))
    for (name, fraction) in [("p50", 0.5), ("p99", 0.99), ("max", 1.0)] {
        let measured = percentile(besideEchoes.rpc, fraction)
        let baseline = percentile(besideEchoes.peers[0], fraction)
        rows.append(Row(
            figure: "2. latency \(name), \(trips) round trips", measured: Report.duration(measured),
            baseline: "echo " + Report.duration(baseline), ratio: Report.times(measured / baseline),
            target: name == "max" ? "" : "≤ 2× echo \(name)", met: name == "max" ? nil : measured <= 2 * baseline))
        let control = percentile(besideEchoes.peers[1], fraction)
        rows.append(Row(
            figure: "2. control: a second echo's \(name)", measured: Report.duration(control),
            baseline: "echo " + Report.duration(baseline), ratio: Report.times(control / baseline), target: "", met: nil))
        // The same round trips through plain JSON-lines loops, taking turns with signup-rpc's.
        guard let besideLoops, name != "max" else { continue }
        let measuredBesideLoops = percentile(besideLoops.rpc, fraction)
        for (loop, samples) in zip(loops, besideLoops.peers) {
            let loopLatency = percentile(samples, fraction)
            rows.append(Row(
                figure: "2. latency \(name) beside a \(loop.name) JSON-lines loop", measured: Report.duration(measuredBesideLoops),
                baseline: "\(loop.name) loop " + Report.duration(loopLatency), ratio: Report.times(measuredBesideLoops / loopLatency),
                target: "below the loop's", met: measuredBesideLoops < loopLatency))
        }
    }
}

// 3. Start-up: spawn → initialize answered, median of 50.
if wanted(3) {
    progress("start-up")
    let (rpcStart, echoStart) = try bench.startUps(count: 50)
    let startMedian = percentile(rpcStart, 0.5)
    rows.append(Row(
        figure: "3. start-up to initialize, median of 50", measured: Report.duration(startMedian),
        baseline: "echo " + Report.duration(percentile(echoStart, 0.5)), ratio: Report.times(startMedian / percentile(echoStart, 0.5)),
        target: "≤ 10 ms", met: startMedian <= 10e6))
}

// 4. Memory: 10 000 open forms, then 1 000 000 edits over them.
if wanted(4) {
    progress("memory")
    let memory = try bench.memory(rpc, ["--clock", "virtual"] + bench.rpcOptions, forms: 10_000 / scale, edits: 1_000_000 / scale)
    let echoMemory = try bench.memory(echo, [], forms: 10_000 / scale, edits: 1_000_000 / scale)
    rows.append(Row(
        figure: "4. peak RSS, \(10_000 / scale) open forms", measured: Report.megabytes(memory.afterOpening.peak),
        baseline: "echo " + Report.megabytes(echoMemory.afterOpening.peak),
        ratio: Report.times(Double(memory.afterOpening.peak) / Double(echoMemory.afterOpening.peak)),
        target: "≤ 64 MiB", met: memory.afterOpening.peak <= 64 << 20))
    rows.append(Row(
        figure: "4. RSS after \(1_000_000 / scale) edits on them (peak)",
        measured: Report.megabytes(memory.afterEditing.current) + " (" + Report.megabytes(memory.afterEditing.peak) + ")",
        baseline: "after opening " + Report.megabytes(memory.afterOpening.current),
        ratio: Report.times(Double(memory.afterEditing.current) / Double(memory.afterOpening.current)),
        target: "no growth", met: memory.afterEditing.current <= memory.afterOpening.current + (memory.afterOpening.current / 20)))
}

// 5. Core alone: the sign-up pipeline in process, virtual scheduler, no JSON.
if wanted(5) {
    progress("core alone")
    let core = CoreAlone.pipeline(edits: 1_000_000 / scale)
    let bare = CoreAlone.bareSubject(edits: 1_000_000 / scale)
    rows.append(Row(
        figure: "5. core alone, signup pipeline", measured: Report.rate(core.editsPerSecond, "edits") + ", " + Report.rate(core.eventsPerSecond, "events"),
        baseline: "bare subject " + Report.rate(bare, "values"), ratio: Report.times(bare / core.editsPerSecond) + " slower",
        target: "", met: nil))
}

// 6. Scaling: cost per edit against the number of forms, and of pending timers per form.
if wanted(6) {
    progress("scaling")
    // A million edits: each size's difference then spans about a third of a second, and a few
    // milliseconds of the host's noise in either run move it by a few per cent, not by half.
    let scalingEdits = 1_000_000 / scale
    /// Rows of per-edit cost (`EndToEnd.costPerEdit`), each against the first of its series;
    /// flat within 1.5× meets the target. Every size must do the same work per edit, or the
    /// series would measure the workload rather than the scaling: so the edits go in rounds
    /// (`Workload.editInRounds`), and each row shows the output lines its edits added.
    func series(_ label: (Int) -> String, baseline: String, _ sizes: [Int],
                cost: (_ size: Int) throws -> (nanoseconds: Double, lines: Double)) throws {
        var first: Double?
        for size in sizes {
            let perEdit = try cost(size)
            let reference = first ?? perEdit.nanoseconds
            first = reference
            rows.append(Row(
                figure: "6. " + label(size),
                measured: Report.duration(perEdit.nanoseconds) + " per edit, " + String(format: "%.2f", perEdit.lines) + " lines out",
                baseline: baseline + " " + Report.duration(reference), ratio: Report.times(perEdit.nanoseconds / reference),
                target: "flat", met: size == sizes[0] ? nil : perEdit.nanoseconds <= reference * 1.5))
        }
    }
    // Debounce 0, so every username edit is checked. Each form gets the same edits a virtual
    // millisecond apart at every size, after a warm-up round per field. (Spread at random, each
    // of 10 000 forms would be edited every 10 s and see all its checks answered, while one form
    // would supersede most of its own: three times the output per edit.)
    try series({ "\($0) forms, \(scalingEdits) edits" }, baseline: "1 form", [1, 100, 10_000 / scale]) { forms in
        try bench.costPerEdit(edits: scalingEdits, arguments: ["--debounce-ms", "0"], name: "forms-\(forms)") { edits in
            var workload = Workload()
            workload.open(forms)
            workload.editInRounds(Workload.signupFields.count, forms: forms, fields: Workload.signupFields, values: ["alice"])
            workload.editInRounds(edits / forms, forms: forms, fields: Workload.signupFields)
            return workload
        }
    }
    // The warm-up leaves one pending check per field (the debounce outlasts the run); the edits
    // then go to the first field of each form only, so only the pending timers differ.
    try series({ "\($0) pending timers per form, 10 forms, \(scalingEdits) edits" }, baseline: "1 timer", [1, 10, 1000]) { timers in
        let kind = try TimerForm.write(fields: timers, in: folder)
        defer { try? FileManager.default.removeItem(atPath: kind) }
        return try bench.costPerEdit(edits: scalingEdits, arguments: ["--forms", kind, "--debounce-ms", "3600000"], name: "timers-\(timers)") { edits in
            var workload = Workload()
            workload.open(10, kind: "timers")
            workload.editEveryField(forms: 10, fields: (0..<timers).map { "f\($0)" })
            workload.editInRounds(edits / 10, forms: 10, fields: ["f0"])
            return workload
        }
    }
}

// 7. Many clients: 1 000 at once, typing and registering, on one process and through websocketd.
if wanted(7) {
    progress("many clients")
    let clients = ManyClients(rpc: rpc, folder: folder, sessions: 1000 / scale)
    if try EndToEnd.helpText(of: rpc).contains("--listen") {
        let one = try clients.overOneProcess()
        let each = try clients.throughWebsocketd()
        let label = "7. \(clients.sessions) clients, first key → fieldChanged"
        for (name, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            let measured = percentile(one.firstKeyToEvent, fraction)
            let baseline = each.map { percentile($0.firstKeyToEvent, fraction) }
            rows.append(Row(
                figure: "\(label) \(name)", measured: Report.duration(measured) + " (one --listen process)",
                baseline: baseline.map { "websocketd " + Report.duration($0) } ?? "websocketd not installed",
                ratio: baseline.map { Report.times(measured / $0) } ?? "—", target: "", met: nil))
        }
        // Issue 54: availability questions never wait behind the passwords hashing meanwhile.
        let availability = percentile(one.lastKeyToAvailability, 0.99)
        rows.append(Row(
            figure: "7. \(clients.sessions) clients on SQLite, last key → available, p99 after the debounce",
            measured: Report.duration(availability) + " (one --listen process, registrations hashing)",
            baseline: each.map { "websocketd " + Report.duration(percentile($0.lastKeyToAvailability, 0.99)) } ?? "",
            ratio: "—", target: "< 500 ms", met: one.lastKeyToAvailability.count == clients.sessions && availability < 500_000_000))
        let perClient = (one.rss - (one.idleRSS ?? 0)) / clients.sessions
        rows.append(Row(
            figure: "7. \(clients.sessions) clients, memory", measured: Report.megabytes(one.rss) + " RSS, \(perClient / 1024) KiB a client",
            baseline: each.map { "websocketd: PSS " + Report.megabytes($0.pss) + ", RSS " + Report.megabytes($0.rss) } ?? "",
            ratio: each.map { Report.times(Double(one.rss) / Double($0.pss)) + " its PSS" } ?? "—", target: "", met: nil))
        rows.append(Row(
            figure: "7. \(clients.sessions) clients, registered", measured: "\(one.registered) of \(clients.sessions)",
            baseline: each.map { "websocketd \($0.registered) of \(clients.sessions)" } ?? "",
            ratio: "—", target: "all register", met: one.registered == clients.sessions && (each?.registered ?? clients.sessions) == clients.sessions))
    } else {
        rows.append(Row(figure: "7. many clients", measured: "no --listen in this build", baseline: "", ratio: "—", target: "", met: nil))
    }
}

// 8. One slow API (issue 54): 1 000 checks against a 300 ms API beside 100 against a hung one, at
// once over stdio, beside a plain client asking the same API as much.
if wanted(8) {
    progress("a hung API")
    let figure = HungAPI(rpc: rpc, folder: folder, healthy: 1000 / scale, hung: 100 / scale, rpcOptions: budgetsOff)
    rows += figure.rows(try figure.run())
}

// 9. Ten thousand connections (issue 58) on one `--listen` process, typing in waves and
// registering; beside the build given by --listen-baseline, when one is.
if wanted(9) {
    progress("ten thousand connections")
    rows += try ManyConnections.figure(rpc: rpc, beside: option("--listen-baseline"), connections: 10_000 / scale, folder: folder,
                                       budgetsOff: budgetsOff, progress: progress)
}

let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
Report.print(rows, machine: "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; signup-rpc: \(rpc); runs per timed figure: \(runs)\(quick ? "; --quick (sizes ÷ 10)" : "")")
