import SignupBackends
import SignupCore

/// Drives a form in virtual time and logs what it emits, one readable line per event:
/// `@time field vVersion: state code params "message"`, `@time submitEnabled true`, and so on.
final class FormHarness {
    let scheduler = VirtualTimeScheduler()
    let directory: ScriptedDirectory
    let form: FormPipeline
    private(set) var log: [String] = []
    /// The value of every field as the last landed edit left it.
    private(set) var lastValues: [String: String] = [:]
    private var subscription: (any Disposable)?

    init(
        script: ScriptedDirectory.Script = .init(),
        debounce: Int64 = 0,
        definition: FormDefinition = .signup,
        initialValues: [String: String] = [:],
        recordID: String? = nil,
        directory sharedDirectory: ScriptedDirectory? = nil,
        scheduler sharedScheduler: VirtualTimeScheduler? = nil
    ) {
        let scheduler = sharedScheduler ?? self.scheduler
        directory = sharedDirectory ?? ScriptedDirectory(script: script, scheduler: scheduler)
        form = FormPipeline(
            definition: definition, services: FormServices(directory: directory), scheduler: scheduler,
            debounce: .milliseconds(debounce), initialValues: initialValues, recordID: recordID)
        clock = scheduler
        subscription = form.events.subscribe(
            onNext: { [unowned self] event in self.log.append("@\(clock.now.milliseconds) \(Self.describe(event))") },
            onCompleted: { [unowned self] in self.log.append("@\(clock.now.milliseconds) completed") })
    }

    private let clock: VirtualTimeScheduler

    deinit {
        // Stop observing before the form (closed as it goes) can complete into a harness being destroyed.
        subscription?.dispose()
    }

    /// Schedules an edit at an absolute virtual time.
    func edit(at time: Int64, _ field: String, _ value: String) {
        at(time) { [unowned self] form in
            if (try? form.edit(field, to: value)) != nil { self.lastValues[field] = value }
        }
    }

    /// Schedules a tap at an absolute virtual time; a rejection is logged as `@time rejected reason`.
    func submit(at time: Int64) {
        at(time) { [unowned self] form in
            do throws(SubmitRejection) { try form.submit() } catch { self.log.append("@\(time) rejected \(error.rawValue)") }
        }
    }

    func at(_ time: Int64, _ action: @escaping (FormPipeline) -> Void) {
        clock.schedule(after: .milliseconds(time - clock.now.milliseconds)) { [form] in action(form) }
    }

    /// Runs the clock until nothing is pending and returns the log.
    @discardableResult
    func runToIdle() -> [String] {
        clock.run()
        return log
    }

    /// Log lines from `time` on.
    func log(from time: Int64) -> [String] {
        log.filter { line in Int64(line.dropFirst().prefix { $0 != " " })! >= time }
    }

    static func describe(_ event: FormEvent) -> String {
        switch event {
        case .fieldChanged(let update):
            return "\(update.field) v\(update.version): \(update.result)"
        case .submitEnabledChanged(let enabled):
            return "submitEnabled \(enabled)"
        case .presenceChanged(let update):
            return "\(update.field) \(update.presence.shown ? "shown" : "hidden")\(update.presence.required ? ", required" : "")"
        case .submissionChanged(let state):
            switch state {
            case .succeeded(let account): return "submission succeeded \(account.templateTextForTests)"
            case .failed(let failure): return "submission failed \(failure.code) \"\(failure.message)\""
            default: return "submission \(state.name)"
            }
        }
    }
}

extension JSONValue {
    /// A compact, key-sorted rendering for test logs.
    var templateTextForTests: String {
        switch self {
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.templateTextForTests)" }
                .joined(separator: ",") + "}"
        default: return templateText
        }
    }
}
