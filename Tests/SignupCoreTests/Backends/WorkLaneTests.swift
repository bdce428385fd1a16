import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SignupBackends
@testable import SignupCore

/// Availability questions never wait behind password hashing (issue 54): the real-time runner has
/// workers for the store and workers for hashing, so store work is served while every hashing
/// worker is busy.
@Suite struct WorkLaneTests {
    @Test func storeWorkIsServedWhileEveryHashingWorkerIsBusy() throws {
        let loop = EventLoop(label: "test.work-lanes")
        let runner = BackgroundWorkRunner(loop: loop)
        let release = DispatchSemaphore(value: 0)
        let events = Mutex<[String]>([])
        let answered = DispatchSemaphore(value: 0)
        // More hashes than there are hashing workers, each held until released.
        let hashes = ProcessInfo.processInfo.activeProcessorCount + 2
        var subscriptions: [any Disposable] = []
        loop.sync {
            for number in 0..<hashes {
                subscriptions.append(runner.run(on: .hashing) { () -> Result<Int, BackendError> in
                    release.wait()
                    return .success(number)
                }.subscribe(onNext: { value in
                    events.withLock { $0.append("hash \(value)") }
                    answered.signal()
                }, onError: { _ in }))
            }
            subscriptions.append(runner.run { () -> Result<String, BackendError> in .success("available") }
                .subscribe(onNext: { value in
                    events.withLock { $0.append(value) }
                    answered.signal()
                }, onError: { _ in }))
        }
        #expect(answered.wait(timeout: .now() + 10) == .success)
        #expect(events.withLock { $0 } == ["available"])
        for _ in 0..<hashes { release.signal() }
        for _ in 0..<hashes { #expect(answered.wait(timeout: .now() + 10) == .success) }
        #expect(Set(events.withLock { $0 }) == Set(["available"] + (0..<hashes).map { "hash \($0)" }))
        loop.sync { subscriptions.forEach { $0.dispose() } }
    }
}
