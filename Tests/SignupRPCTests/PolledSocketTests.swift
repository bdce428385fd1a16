import Foundation
import Testing
@testable import SignupTransport

/// `--listen`'s sockets are read and written on one `SocketPoller` thread: a writer that finds no
/// room keeps the rest and never blocks its sender; a reader pauses while four batches wait.
/// Over a Unix socket pair, waiting on conditions only.
@Suite struct PolledSocketTests {
    /// A connected pair of Unix stream sockets, the first with a small send buffer, so that it
    /// fills after a few messages.
    private static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw POSIXError(.EIO) }
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return (fds[0], fds[1])
    }

    /// A polled writer on the server's end of a socket pair, and the client's end, which reads.
    private struct PolledWriter {
        let server: Int32, client: Int32
        let socket: PolledSocket
        let writer: ConnectionWriter

        init(conflates: Bool = false, framing: Framing = .lines) throws {
            (server, client) = try socketPair()
            socket = PolledSocket(server, poller: try SocketPoller())
            writer = ConnectionWriter(fd: server, polledBy: socket, conflates: conflates, writesDirectlyWhenIdle: true,
                                      framing: FramingChoice(framing), deferWake: nil)
        }

        func send(_ message: String) {
            Array(message.utf8).withUnsafeBytes { writer.send($0, conflationKey: nil) }
        }

        /// What the client reads (blocking) until `count` bytes have come, or the end.
        func clientReads(_ count: Int) -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while bytes.count < count {
                let read = buffer.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
                if read <= 0 { break }
                bytes += buffer[..<read]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Stops watching the socket and closes the server's end (the client's, unless closed).
        func end(closingClient: Bool = true) {
            socket.forget()
            close(server)
            if closingClient { close(client) }
        }
    }

    @Test func aWriterWithoutRoomKeepsTheRestAndWritesEverythingInOrderOnceTheClientReads() throws {
        let polled = try PolledWriter()
        let stopped = DispatchSemaphore(value: 0)
        polled.writer.whenStopped { stopped.signal() }
        // 300 messages of 3 000 bytes, each short enough to be written directly when the writer
        // is idle: the first fill the socket, one is cut short, the rest wait in the queue. No
        // send blocks, though the client reads nothing yet.
        let messages = (0..<300).map { String(format: "%04d", $0) + String(repeating: "x", count: 2996) }
        messages.forEach(polled.send)
        #expect(polled.writer.queue.queuedBytes > 0)
        let expected = messages.map { $0 + "\n" }.joined()
        #expect(polled.clientReads(expected.utf8.count) == expected)
        polled.writer.close()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        polled.end()
    }

    /// In LSP framing each message goes with its own header, whole, however the socket cuts the
    /// writes: read back, the stream is every header and body in order.
    @Test func aWriterInLSPFramingFramesEveryMessageThoughTheSocketTakesPartOfIt() throws {
        let polled = try PolledWriter(framing: .lsp)
        let messages = (0..<200).map { #"{"n":\#($0),"pad":""# + String(repeating: "z", count: 1500 + $0) + #""}"# }
        messages.forEach(polled.send)
        let expected = messages.map { "Content-Length: \($0.utf8.count)\r\n\r\n\($0)" }.joined()
        #expect(polled.clientReads(expected.utf8.count) == expected)
        polled.writer.close()
        polled.end()
    }

    @Test func aWriterWhoseClientHasGoneDropsWhatWaitsAndStops() throws {
        let polled = try PolledWriter(conflates: true)
        let gone = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        polled.writer.whenClientGone { gone.signal() }
        polled.writer.whenStopped { stopped.signal() }
        for _ in 0..<50 { polled.send(String(repeating: "y", count: 3000)) }
        close(polled.client)
        #expect(gone.wait(timeout: .now() + 10) == .success)
        polled.writer.close()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        polled.end(closingClient: false)
    }

    /// Each message read, as text.
    private struct Lines: MessageReceiver {
        var lines: [String] = []
        mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>) { lines.append(String(decoding: bytes, as: UTF8.self)) }
        mutating func receiveOversize() { lines.append("(oversize)") }
    }

    @Test func aReaderPausesWhileFourBatchesWaitAndGoesOnWhenOneIsTaken() throws {
        let (server, client) = try Self.socketPair()
        defer { close(client) }
        let socket = PolledSocket(server, poller: try SocketPoller())
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

    /// Epoll refuses some descriptors (a regular file: EPERM; past `fs.epoll.max_user_watches`:
    /// ENOSPC). Such a socket is shut down and told it is ready, on the poller's thread, whenever
    /// it asks: its reader meets the end, as if the client had gone, and the process goes on.
    @Test func aDescriptorEpollRefusesIsReadToItsEndNotTrappedOn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("refused-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("one\ntwo".utf8)))
        let file = open(path, O_RDONLY)
        defer {
            close(file)
            unlink(path)
        }
        let poller = try SocketPoller()
        let socket = PolledSocket(file, poller: poller)
        let batches = LockedValue<[(lines: [String], isEnd: Bool)]>()
        batches.set([])
        let ended = DispatchSemaphore(value: 0)
        let reader = ConnectionReader(fd: file, framing: FramingChoice(.lines), maxLineBytes: 1024,
                                      makeReceiver: { _ in Lines() }) { batch, isEnd, done in
            batches.update { $0?.append((batch.lines, isEnd)) }
            done()
            if isEnd { ended.signal() }
        }
        reader.start(polledBy: socket)
        #expect(ended.wait(timeout: .now() + 10) == .success)
        #expect(socket.wasRefused)
        #expect(batches.get()?.map(\.lines) == [["one"], ["two"]])
        #expect(batches.get()?.map(\.isEnd) == [false, true])
        #expect(!socket.isWatchingReads)
        // The poller goes on serving the sockets epoll takes.
        let (server, client) = try Self.socketPair()
        defer { close(client) }
        let other = PolledSocket(server, poller: poller)
        let read = DispatchSemaphore(value: 0)
        let otherReader = ConnectionReader(fd: server, framing: FramingChoice(.lines), maxLineBytes: 1024,
                                           makeReceiver: { _ in Lines() }) { batch, _, done in
            if batch.lines == ["hello"] { read.signal() }
            done()
        }
        otherReader.start(polledBy: other)
        _ = Array("hello\n".utf8).withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) }
        #expect(read.wait(timeout: .now() + 10) == .success)
        #expect(!other.wasRefused)
        socket.forget()
        other.forget()
        close(server)
    }
}
