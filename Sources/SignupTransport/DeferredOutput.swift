/// Messages the writer thread encodes itself, where it writes them, rather than their sender:
/// the transport's seam with whatever encodes them, of which it knows nothing more than this.
package protocol DeferredOutput: Sendable {
    /// How many messages; each counts `OutgoingQueue.deferredMessageBytes` toward what waits.
    var count: Int { get }
    /// Encodes the messages, in order, each followed by `\n`, handing `body` runs of whole lines
    /// with what their encoder knows of them (`LineScreening`).
    func encode(_ body: (UnsafeRawBufferPointer, LineScreening) -> Void)
}

/// Whether a mirror that screens what is written (the trace, for secrets) must read a run's
/// lines to screen them, or their encoder knows they need none. The transport passes it from
/// the encoder to the mirror and reads it no further; bytes sent already encoded need screening.
package enum LineScreening: Sendable {
    case needed
    case notNeeded
}
