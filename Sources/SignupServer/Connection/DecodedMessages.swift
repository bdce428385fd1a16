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

    package mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>) {
        items.append(decoder.item(bytes, keepingEditsIn: kept))
    }

    package mutating func receiveOversize() {
        items.append(.oversizeLine)
    }
}
