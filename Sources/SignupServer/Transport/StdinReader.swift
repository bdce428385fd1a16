import Foundation
import SignupCore

/// Reads standard input on its own thread with blocking `read(2)` and hands complete lines to
/// the event loop, one batch per read. At most a few batches wait on the loop at once: when the
/// server falls behind, reading pauses instead of buffering without bound.
final class StdinReader: Sendable {
    private let fd: Int32
    private let maxLineBytes: Int
    private let editsMaxDepth: Int?
    private let slots = DispatchSemaphore(value: 4)
    private let deliver: @Sendable (_ items: [InputItem], _ isEnd: Bool, _ done: @escaping @Sendable () -> Void) -> Void

    /// `deliver` runs on the reader thread; it must hand the items to the loop and call `done`
    /// there once they have been handled.
    /// `editsMaxDepth`, when given, has `form.edit` lines read here too (see `LineSplitter`).
    init(fd: Int32 = 0, maxLineBytes: Int, editsMaxDepth: Int? = nil,
         deliver: @escaping @Sendable (_ items: [InputItem], _ isEnd: Bool, _ done: @escaping @Sendable () -> Void) -> Void) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
        self.editsMaxDepth = editsMaxDepth
        self.deliver = deliver
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "signup-rpc.stdin"
        thread.start()
    }

    private func run() {
        var splitter = LineSplitter(maxLineBytes: maxLineBytes, editsMaxDepth: editsMaxDepth)
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            var items: [InputItem] = []
            if count <= 0 {
                splitter.finish(into: &items)
                hand(items, isEnd: true)
                return
            }
            splitter.feed(UnsafeBufferPointer(start: buffer, count: count), into: &items)
            if !items.isEmpty { hand(items, isEnd: false) }
        }
    }

    private func hand(_ items: [InputItem], isEnd: Bool) {
        slots.wait()
        let slots = self.slots
        deliver(items, isEnd) { slots.signal() }
    }
}
