import SignupCore
import SignupFormFiles
import SignupProtocol
import SignupServer

/// Replays a recording on the virtual clock: its inputs at their recorded times, its backend
/// answering as recorded, and compares what the server writes with what it wrote.
struct Replayer {
    /// Where a replay first differs from its recording.
    struct Divergence {
        /// The position of the message among the outputs, from 0.
        var index: Int
        var recorded: JSON?
        var replayed: JSON?
        /// When the recording wrote it (or, for a missing one, when the replay did).
        var time: Int64?
        /// The recording's entries just before it.
        var context: [Recording.Entry]
    }

    package struct Outcome {
        var replayed: [JSON]
        var divergence: Divergence?
        var unrecordedQuestions: [BackendQuestion]
        var inputs: Int
        var answers: Int
        var endTime: Int64
    }

    let recording: Recording

    /// The configuration the recorded server ran with.
    static func configuration(for header: Recording.Header) throws(FormFile.Problem) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.clock = header.clock
        configuration.debounce = .milliseconds(header.debounce)
        configuration.limits = header.limits
        configuration.checkBudget = header.checkBudget
        configuration.logLevel = .error
        for (index, document) in header.formFiles.enumerated() {
            configuration.customForms.append(try FormFile.parse(document, file: "recorded form \(index + 1)"))
        }
        configuration.customFormDocuments = header.formFiles
        return configuration
    }

    /// Replays the recording with each input placed against its millisecond's due work as
    /// `inputsBeforeDueWork` says (by default, as the recorded order tells).
    func run(inputsBeforeDueWork: [Bool]? = nil) throws(FormFile.Problem) -> Outcome {
        let inputsBeforeDueWork = inputsBeforeDueWork ?? recording.inputsBeforeDueWork
        let configuration = try Self.configuration(for: recording.header)
        var backend: ReplayedBackend?
        let header = recording.header
        let session = InProcessSession(configuration: configuration, services: { scheduler in
            let replayed = ReplayedBackend(recording: recording, scheduler: scheduler)
            backend = replayed
            return FormServices(
                availability: replayed, registration: replayed, authentication: header.logsIn ? replayed : nil,
                friends: header.savesFriends ? replayed : nil)
        }, recording: false)
        let server = session.server
        let decoder = MessageDecoder(maxDepth: configuration.limits.maxDepth, readsEdits: false)
        var inputs = 0
        var answers = 0
        var end: (time: Int64, reason: String)?
        var inputNumber = 0
        for entry in recording.entries {
            switch entry {
            case .input(let time, let input):
                session.advance(to: time, holdingWorkDueThen: inputsBeforeDueWork[inputNumber])
                inputNumber += 1
                server.finishDraining()
                guard server.exitCode == nil else { continue }
                inputs += 1
                backend?.inputsStarted = inputs
                backend?.inputBegan()
                session.handle(Self.item(input, decoder: decoder))
                backend?.releaseHeld()
            case .answer: answers += 1
            case .end(let time, let reason): end = (time, reason)
            default: break
            }
        }
        if let end {
            session.advance(to: end.time)
            server.finishDraining()
            if header.clock == .virtual, server.exitCode == nil {
                if end.reason == "input" { server.runToIdle() } else if end.reason == "signal" { _ = server.settleSubmissions() }
            }
        }
        let replayed = session.messages.map { bytes in (try? JSONParser.parse(bytes, maxDepth: 10_000)) ?? .string(String(decoding: bytes, as: UTF8.self)) }
        return Outcome(
            replayed: replayed, divergence: Self.firstDifference(recording: recording, replayed: replayed),
            unrecordedQuestions: backend?.unrecordedQuestions ?? [], inputs: inputs, answers: answers,
            endTime: end?.time ?? session.scheduler.now.milliseconds)
    }

    /// Replays the recording, and where it differs, places the inputs whose order the recording
    /// leaves open (`Recording.inputsPlacedByGuess`) the other way, one at a time from the
    /// first, keeping each change that brings the first difference later: at most
    /// `maxReplays` replays, and none for an input recorded after the difference. Returns the
    /// last outcome and the order it was replayed in.
    func runFindingOrder(maxReplays: Int = 64) throws(FormFile.Problem) -> (outcome: Outcome, inputsBeforeDueWork: [Bool]) {
        var (order, guessed) = recording.inputOrder
        var outcome = try run(inputsBeforeDueWork: order)
        var replays = 1
        let inputTimes = recording.entries.compactMap { entry -> Int64? in
            if case .input(let time, _) = entry { time } else { nil }
        }
        for input in guessed {
            guard let divergence = outcome.divergence, replays < maxReplays,
                  inputTimes[input] <= divergence.time ?? .max else { break }
            order[input].toggle()
            let other = try run(inputsBeforeDueWork: order)
            replays += 1
            if let later = other.divergence, later.index <= divergence.index {
                order[input].toggle()
            } else {
                outcome = other
            }
        }
        return (outcome, order)
    }

    /// The input as the server takes it from its connection, decoded by `decoder`.
    static func item(_ input: Recording.Input, decoder: MessageDecoder) -> InputItem {
        bytes(of: input).map(decoder.message) ?? .oversizeLine
    }

    /// The input's bytes as the client sent them; nil for a line over the limit, which has none.
    static func bytes(of input: Recording.Input) -> [UInt8]? {
        switch input {
        case .message(let message):
            var writer = JSONWriter()
            writer.json(message)
            return writer.withBytes { Array($0) }
        case .text(let bytes): return bytes
        case .oversize: return nil
        }
    }

    static func firstDifference(recording: Recording, replayed: [JSON]) -> Divergence? {
        var index = 0
        var context: [Recording.Entry] = []
        for entry in recording.entries {
            guard case .output(let time, let message) = entry else {
                if case .end = entry { continue }
                context.append(entry)
                if context.count > 4 { context.removeFirst() }
                continue
            }
            guard index < replayed.count, replayed[index] == message else {
                return Divergence(index: index, recorded: message, replayed: index < replayed.count ? replayed[index] : nil,
                                  time: time, context: context)
            }
            context.append(entry)
            if context.count > 4 { context.removeFirst() }
            index += 1
        }
        guard index == replayed.count else {
            return Divergence(index: index, recorded: nil, replayed: replayed[index], time: nil, context: context)
        }
        return nil
    }
}
