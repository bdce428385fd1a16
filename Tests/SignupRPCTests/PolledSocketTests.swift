import Foundation
import Testing
@testable import SignupTransport

/// `--listen`'s sockets are read and written on one `SocketPoller` thread: a writer that finds no
/// room keeps the rest and never blocks its sender; a reader pauses while four batches wait.
/// Over a Unix socket pair, waiting on conditions only.
@Suite struct PolledSocketTests {
    /// A connected pair of Unix stream sockets, the first with a small send buffer, so that it
    /// fills after a few messages.
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw POSIXError(.EIO) }
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return (fds[0], fds[1])
    }

    /// Reads `fd` (blocking) until `count` lines have come.
    private func readLines(_ count: Int, from fd: Int32) -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var lines = 0
        while lines < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read <= 0 { break }
            lines += buffer[..<read].count(where: { $0 == 0x0A })
            bytes += buffer[..<read]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aWriterWithoutRoomKeepsTheRestAndWritesEverythingInOrderOnceTheClientReads() throws {
        let poller = try SocketPoller()
        let (server, client) = try socketPair()
        defer { close(client) }
        let socket = PolledSocket(server, poller: poller)
        let writer = ConnectionWriter(fd: server, polledBy: socket, conflates: false, writesDirectlyWhenIdle: true,
                                      framing: FramingChoice(.lines), deferWake: nil)
        let stopped = DispatchSemaphore(value: 0)
        writer.whenStopped { stopped.signal() }
        // 300 messages of 3 000 bytes, each short enough to be written directly when the writer
        // is idle: the first fill the socket, one is cut short, the rest wait in the queue. No
        // send blocks, though the client reads nothing yet.
        let messages = (0..<300).map { String(format: "%04d", $0) + String(repeating: "x", count: 2996) }
        for message in messages {
            Array(message.utf8).withUnsafeBytes { writer.send($0, conflationKey: nil) }
        }
        #expect(writer.queue.queuedBytes > 0)
        #expect(readLines(300, from: client) == messages)
        writer.close()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        socket.forget()
        close(server)
    }

    /// In LSP framing each message goes with its own header, whole, however the socket cuts the
    /// writes: read back, the stream is every header and body in order.
    @Test func aWriterInLSPFramingFramesEveryMessageThoughTheSocketTakesPartOfIt() throws {
        let poller = try SocketPoller()
        let (server, client) = try socketPair()
        defer { close(client) }
        let socket = PolledSocket(server, poller: poller)
        let writer = ConnectionWriter(fd: server, polledBy: socket, conflates: false, writesDirectlyWhenIdle: true,
                                      framing: FramingChoice(.lsp), deferWake: nil)
        let messages = (0..<200).map { #"{"n":\#($0),"pad":""# + String(repeating: "z", count: 1500 + $0) + #""}"# }
        for message in messages {
            Array(message.utf8).withUnsafeBytes { writer.send($0, conflationKey: nil) }
        }
        let expected = messages.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < expected.utf8.count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
            if read <= 0 { break }
            received += buffer[..<read]
        }
        #expect(String(decoding: received, as: UTF8.self) == expected)
        writer.close()
        socket.forget()
        close(server)
    }

    @Test func aWriterWhoseClientHasGoneDropsWhatWaitsAndStops() throws {
        let poller = try SocketPoller()
        let (server, client) = try socketPair()
        let socket = PolledSocket(server, poller: poller)
        let writer = ConnectionWriter(fd: server, polledBy: socket, conflates: true, writesDirectlyWhenIdle: true,
                                      framing: FramingChoice(.lines), deferWake: nil)
        let gone = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        writer.whenClientGone { gone.signal() }
        writer.whenStopped { stopped.signal() }
        let message = Array(String(repeating: "y", count: 3000).utf8)
        for _ in 0..<50 { message.withUnsafeBytes { writer.send($0, conflationKey: nil) } }
        close(client)
        #expect(gone.wait(timeout: .now() + 10) == .success)
        writer.close()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        socket.forget()
        close(server)
    }

    /// Each message read, as text.
    private struct Lines: MessageReceiver {
        var lines: [String] = []
        mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>) { lines.append(String(decoding: bytes, as: UTF8.self)) }
        mutating func receiveOversize() { lines.append("(oversize)") }
    }

    @Test func aReaderPausesWhileFourBatchesWaitAndGoesOnWhenOneIsTaken() throws {
        let poller = try SocketPoller()
        let (server, client) = try socketPair()
        defer { close(client) }
        let socket = PolledSocket(server, poller: poller)
        let batches = LockedValue<[(lines: [String], done: @Sendable () -> Void)]>()
        batches.set([])
        let delivered = DispatchSemaphore(value: 0)
        let reader = ConnectionReader(fd: server, framing: FramingChoice(.lines), maxLineBytes: 1024,
                                      makeReceiver: { _ in Lines() }) { batch, _, done in
            batches.update { $0?.append((batch.lines, done)) }
            delivered.signal()
        }
        reader.start(polledBy: socket)
        func write(_ line: String) { _ = Array((line + "\n").utf8).withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) } }
        // One line at a time, each read as a batch of its own; none is taken.
        for number in 1...4 {
            write("line \(number)")
            #expect(delivered.wait(timeout: .now() + 10) == .success)
        }
        #expect(batches.get()?.map(\.lines) == [["line 1"], ["line 2"], ["line 3"], ["line 4"]])
        #expect(!socket.isWatchingReads)
        write("line 5")
        // Taking one batch frees a slot: the socket is read again, and the fifth line comes.
        batches.get()?.first?.done()
        #expect(delivered.wait(timeout: .now() + 10) == .success)
        #expect(batches.get()?.map(\.lines).last == ["line 5"])
        #expect(!socket.isWatchingReads, "four wait again")
        batches.get()?[1].done()
        #expect(socket.isWatchingReads)
        socket.forget()
        close(server)
    }
}
