/// Where a framer (`LineSplitter`, `LSPFrameReader`, `InputFramer`) hands each message it cuts
/// out of the byte stream, in order: the transport's seam with whatever decodes messages, of
/// which it knows nothing more than this.
package protocol MessageReceiver: SendableMetatype {
    /// A complete message without its framing (a line's `\n`, an LSP header); `bytes` is valid
    /// only during the call.
    mutating func receive(_ bytes: UnsafeBufferPointer<UInt8>)
    /// A message over the limit, whose bytes were skipped as they came, never buffered.
    mutating func receiveOversize()
}

extension UInt8 {
    /// Whether the byte is blank between messages: a space, a tab, `\r` or `\n` (JSON's whitespace).
    var isBlank: Bool {
        self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
    }
}
