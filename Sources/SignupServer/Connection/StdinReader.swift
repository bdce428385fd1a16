import Foundation
import SignupCore
import SignupProtocol
import SignupTransport

/// Reads standard input on its own thread with blocking `read(2)` and hands complete lines to
/// the event loop, one batch per read. At most a few batches wait on the loop at once: when the
/// server falls behind, reading pauses instead of buffering without bound.
final class StdinReader: Sendable {
    private let fd: Int32
    private let framing: FramingChoice
    private let maxLineBytes: Int
    private let decoder: MessageDecoder
    /// Whether each batch keeps its plain edits' lines, for a recording.
    private let keepsEditLines: Bool
    private let slots = DispatchSemaphore(value: 4)
    private let deliver: @Sendable (_ batch: InputBatch, _ isEnd: Bool, _ done: @escaping @Sendable () -> Void) -> Void

    /// `deliver` runs on the reader thread; it must hand the items to the loop and call `done`
    /// there once they have been handled.
    /// `decoder` is handed each complete message here, on the reading thread (`MessageDecoder`), and
    /// `keepsEditLines` their lines kept with each batch (`KeptEditLines`).
    init(fd: Int32 = 0, framing: FramingChoice = FramingChoice(.lines), maxLineBytes: Int, decoder: MessageDecoder = .generic,
         keepsEditLines: Bool = false,
         deliver: @escaping @Sendable (_ batch: InputBatch, _ isEnd: Bool, _ done: @escaping @Sendable () -> Void) -> Void) {
        self.fd = fd
        self.framing = framing
        self.maxLineBytes = maxLineBytes
        self.decoder = decoder
        self.keepsEditLines = keepsEditLines
        self.deliver = deliver
    }

    /// About the shortest `form.edit` line a client sends.
    private static let shortLineBytes = 64

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "signup-rpc.stdin"
        thread.start()
    }

    private func run() {
        var splitter = InputFramer(choice: framing, maxLineBytes: maxLineBytes)
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            var messages = DecodedMessages(decoder, keepingEditsIn: keepsEditLines ? KeptEditLines(readBytes: count) : nil)
            if count <= 0 {
                splitter.finish(into: &messages)
                hand(messages, isEnd: true)
                return
            }
            // Room for a read of keystroke-sized lines at once, so the array is not regrown as it fills.
            messages.items.reserveCapacity(count / Self.shortLineBytes + 1)
            splitter.feed(UnsafeBufferPointer(start: buffer, count: count), into: &messages)
            if !messages.items.isEmpty { hand(messages, isEnd: false) }
        }
    }

    private func hand(_ messages: consuming DecodedMessages, isEnd: Bool) {
        slots.wait()
        let slots = self.slots
        let kept = messages.kept
        deliver(InputBatch(messages.items, keptEditLines: kept), isEnd) { slots.signal() }
    }
}

/// The items of one read, handed from the reading thread to the loop, which takes them once.
/// A box, so that the array reaches the loop as its only owner: captured by the closure that
/// carries it there, it would be shared, and the loop's first change to it would copy every item.
final class InputBatch: @unchecked Sendable {
    // Unchecked Sendable: filled on the reading thread before it is handed over, and touched only
    // on the loop after that (the hand-over through the loop's queue orders the two).
    private var items: [InputItem]
    /// The lines of its plain edits, in order, when a recording keeps them.
    let keptEditLines: KeptEditLines?

    init(_ items: consuming [InputItem], keptEditLines: KeptEditLines? = nil) {
        self.items = items
        self.keptEditLines = keptEditLines
    }

    /// The items, leaving the batch empty.
    func take() -> [InputItem] {
        var taken: [InputItem] = []
        swap(&taken, &items)
        return taken
    }
}
