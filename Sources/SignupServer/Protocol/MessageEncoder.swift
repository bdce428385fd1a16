/// Encodes outgoing messages into one buffer reused for all of them, so sending a message on the
/// loop allocates nothing: the sink copies the bytes out before the next message is written.
final class MessageEncoder {
    private var writer = JSONWriter(capacity: 1024)

    /// Writes a message with `body` and sends it to `sink`.
    func send(
        to sink: any MessageSink, conflationKey: @autoclosure () -> ConflationKey? = nil,
        _ body: (inout JSONWriter) -> Void
    ) {
        writer.removeAll()
        body(&writer)
        writer.withBytes { sink.send($0, conflationKey: conflationKey()) }
    }
}
