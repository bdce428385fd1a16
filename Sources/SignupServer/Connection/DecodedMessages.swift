import SignupProtocol
import SignupTransport

/// What a session's framer hands each message to: its decoder, on the reading thread, so that
/// every message reaches the loop decoded once (`InputItem`). A plain edit's line is also kept in
/// `kept`, when given, for a recording.
package struct DecodedMessages: MessageReceiver {
    package let decoder: MessageDecoder
    package let kept: KeptEditLines?
    package var items: [InputItem] = []

    package init(_ decoder: MessageDecoder, keepingEditsIn kept: KeptEditLines? = nil) {
        self.decoder = decoder
        self.kept = kept
    }

    /// For a read of `readBytes` bytes: room for as many keystroke-sized messages at once, so the
    /// array is not regrown as it fills, and their lines kept when `keepsEditLines`.
    init(_ decoder: MessageDecoder, readBytes: Int, keepsEditLines: Bool) {
        self.init(decoder, keepingEditsIn: keepsEditLines ? KeptEditLines(readBytes: readBytes) : nil)
        items.reserveCapacity(readBytes / Self.shortMessageBytes + 1)
    }

    /// About the shortest `form.edit` line a client sends.
    private static let shortMessageBytes = 64

    package mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>) {
        items.append(decoder.item(bytes, keepingEditsIn: kept))
    }

    package mutating func receiveOversize() {
        items.append(.oversizeLine)
    }
}
