import Foundation
import Synchronization

/// Reads a connection's descriptor, cuts what it reads into messages in the framing chosen
/// (`InputFramer`), and hands each read's messages on, in a receiver made for that read, as one
/// batch: on its own thread with blocking `read(2)` (stdio), or on a `SocketPoller`'s thread
/// whenever its socket is readable (`--listen`). At most a few batches wait at once: when their
/// taker falls behind, reading pauses instead of buffering without bound.
package final class ConnectionReader<Receiver: MessageReceiver>: Sendable {
    private let fd: Int32
    private let framing: FramingChoice
    private let maxLineBytes: Int
    private let slots = DispatchSemaphore(value: 4)
    private let makeReceiver: @Sendable (_ readBytes: Int) -> Receiver
    private let deliver: @Sendable (_ batch: consuming Receiver, _ isEnd: Bool, _ done: @escaping @Sendable () -> Void) -> Void

    /// `makeReceiver` makes the receiver of one read's messages, on the reading thread, from how
    /// many bytes it read; `deliver` runs there too, and must hand the batch on and call `done`
    /// once it has been taken care of (or dropped). The batch of the end of input is the last.
    package init(fd: Int32, framing: FramingChoice, maxLineBytes: Int,
                 makeReceiver: @escaping @Sendable (_ readBytes: Int) -> Receiver,
                 deliver: @escaping @Sendable (_ batch: consuming Receiver, _ isEnd: Bool,
                                               _ done: @escaping @Sendable () -> Void) -> Void) {
        self.fd = fd
        self.framing = framing
        self.maxLineBytes = maxLineBytes
        self.makeReceiver = makeReceiver
        self.deliver = deliver
    }

    package func start() {
        let thread = Thread { [self] in run() }
        thread.name = "signup-rpc.stdin"
        thread.start()
    }

    /// Reads on `socket`'s poller thread instead of a thread of its own.
    package func start(polledBy socket: PolledSocket) {
        let framer = PolledFramer(InputFramer(choice: framing, maxLineBytes: maxLineBytes))
        socket.startReading { [self] buffer in readAvailable(from: socket, into: buffer, framer: framer) }
    }

    /// One read of a readable socket, on the poller's thread; its messages are handed on in one batch.
    private func readAvailable(from socket: PolledSocket, into buffer: UnsafeMutableRawBufferPointer,
                               framer: PolledFramer) {
        var count: Int
        repeat { count = read(fd, buffer.baseAddress, buffer.count) } while count < 0 && errno == EINTR
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
        var read = Counted(makeReceiver(max(count, 0)))
        let isEnd = count <= 0
        framer.state.withLock { framer in
            if isEnd {
                framer.finish(into: &read)
            } else {
                framer.feed(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count),
                            into: &read)
            }
        }
        if isEnd {
            socket.stopReading()
            deliver(read.receiver, true) {}
        } else if read.count > 0 {
            socket.takeReadSlot()
            deliver(read.receiver, false) { socket.giveBackReadSlot() }
        }
    }

    /// The framer of a polled socket: touched on the poller's thread only, so its lock is never contended.
    private final class PolledFramer: Sendable {
        let state: Mutex<InputFramer>
        init(_ framer: sending InputFramer) { state = Mutex(framer) }
    }

    private func run() {
        var framer = InputFramer(choice: framing, maxLineBytes: maxLineBytes)
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            var read = Counted(makeReceiver(max(count, 0)))
            if count <= 0 {
                framer.finish(into: &read)
                hand(read.receiver, isEnd: true)
                return
            }
            framer.feed(UnsafeBufferPointer(start: buffer, count: count), into: &read)
            if read.count > 0 { hand(read.receiver, isEnd: false) }
        }
    }

    /// A receiver, and how many messages it was handed.
    private struct Counted: MessageReceiver {
        var receiver: Receiver
        var count = 0

        init(_ receiver: Receiver) {
            self.receiver = receiver
        }

        mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>) {
            count += 1
            receiver.receive(bytes)
        }

        mutating func receiveOversize() {
            count += 1
            receiver.receiveOversize()
        }
    }

    private func hand(_ batch: consuming Receiver, isEnd: Bool) {
        slots.wait()
        let slots = self.slots
        deliver(batch, isEnd) { slots.signal() }
    }
}
