import Foundation
import SignupBackends
import SignupCore

/// The sign-up pipeline in process on the virtual scheduler: no process, no pipe, no JSON.
enum CoreAlone {
    /// Edits and events per second through `FormPipeline` for `.signup`.
    static func pipeline(edits: Int) -> (editsPerSecond: Double, eventsPerSecond: Double, events: Int) {
        let scheduler = VirtualTimeScheduler()
        let directory = ScriptedDirectory(script: .init(checkLatency: .fixed(.milliseconds(200))), scheduler: scheduler)
        let form = FormPipeline(definition: .signup, services: FormServices(directory: directory), scheduler: scheduler)
        var events = 0
        let subscription = form.events.subscribe(onNext: { _ in events += 1 })
        let fields = ["username", "password", "repeatedPassword"]
        var random = SeededGenerator(seed: 7)
        let start = now()
        for index in 0..<edits {
            let value = Workload.values[Int(random.next() % UInt64(Workload.values.count))]
            _ = try? form.edit(fields[index % 3], to: value)
            scheduler.advance(by: .milliseconds(1))
        }
        scheduler.run()
        let seconds = Double(now() - start) / 1e9
        subscription.dispose()
        form.close()
        return (Double(edits) / seconds, Double(events) / seconds, events)
    }

    /// The baseline: the same values through a bare subject, a map and a subscriber.
    static func bareSubject(edits: Int) -> Double {
        let subject = PublishSubject<String>()
        var count = 0
        let subscription = subject.stream.map { $0.count }.subscribe(onNext: { count &+= $0 })
        var random = SeededGenerator(seed: 7)
        let start = now()
        for _ in 0..<edits {
            subject.onNext(Workload.values[Int(random.next() % UInt64(Workload.values.count))])
        }
        let seconds = Double(now() - start) / 1e9
        subscription.dispose()
        precondition(count > 0)
        return Double(edits) / seconds
    }
}
